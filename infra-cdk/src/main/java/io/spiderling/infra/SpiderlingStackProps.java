package io.spiderling.infra;

import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.ConfigKey;
import io.spiderling.catalog.EventSource;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.catalog.Queue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Everything a deployment chooses; the catalog says the rest. Built with {@link #builder()}, which checks the
 * choices against each other and against the catalog, so a bad deployment fails before anything is synthesized.
 * {@link SpiderlingApp} fills it from CDK context; tests fill it directly.
 */
public final class SpiderlingStackProps {

    /**
     * Stands in for lost-after when the deployment leaves it to the functions' default: longer than any queue keeps
     * a message, so the catalog's lost-after check passes and only that check is skipped.
     */
    private static final Duration LOST_AFTER_UNCHECKED = Duration.ofSeconds(Long.MAX_VALUE);

    private static final Pattern RESOURCE_PREFIX = Pattern.compile("[a-z][a-z0-9-]{0,29}");

    private final Path artifact;
    private final String resourcePrefix;
    private final Optional<CpuArchitecture> architecture;
    private final ApiAuth auth;
    private final String clientClaim;
    private final Optional<String> userAgent;
    private final Optional<String> robotsAgent;
    private final Optional<List<String>> callbackHosts;
    private final List<String> adminGroups;
    private final List<String> adminRoles;
    private final Optional<Long> quotaUrlsPerDay;
    private final Optional<Duration> lostAfter;
    private final Map<ConfigKey<?>, Path> siteLists;
    private final int logRetentionDays;
    private final double throttleRateLimit;
    private final int throttleBurstLimit;
    private final Set<Queue> omittedQueues;
    private final boolean deletionProtection;
    private final boolean bucketVersioning;
    private final Optional<Duration> contentExpiry;
    private final Map<String, Integer> maxConcurrency;
    private final Map<String, Integer> reservedConcurrency;
    private final Duration frontierLagAlarm;
    private final List<FunctionSpec> functions;

    private SpiderlingStackProps(Builder b) {
        this.artifact = Objects.requireNonNull(b.artifact, "artifact: the function.zip to deploy");
        this.resourcePrefix = b.resourcePrefix;
        this.architecture = b.architecture;
        this.auth = Objects.requireNonNull(b.auth, "auth: jwt or iam");
        this.clientClaim = b.clientClaim;
        this.userAgent = b.userAgent;
        this.robotsAgent = b.robotsAgent;
        this.callbackHosts = b.callbackHosts.map(List::copyOf);
        this.adminGroups = List.copyOf(b.adminGroups);
        this.adminRoles = List.copyOf(b.adminRoles);
        this.quotaUrlsPerDay = b.quotaUrlsPerDay;
        this.lostAfter = b.lostAfter;
        // Insertion order is kept: it is the order of the files in the layer, and the template must not vary.
        this.siteLists = Collections.unmodifiableMap(new LinkedHashMap<>(b.siteLists));
        this.logRetentionDays = b.logRetentionDays;
        this.throttleRateLimit = b.throttleRateLimit;
        this.throttleBurstLimit = b.throttleBurstLimit;
        this.omittedQueues = b.omittedQueues.isEmpty() ? Set.of() : Set.copyOf(b.omittedQueues);
        this.deletionProtection = b.deletionProtection;
        this.bucketVersioning = b.bucketVersioning;
        this.contentExpiry = b.contentExpiry;
        this.maxConcurrency = Map.copyOf(b.maxConcurrency);
        this.reservedConcurrency = Map.copyOf(b.reservedConcurrency);
        this.frontierLagAlarm = b.frontierLagAlarm;
        this.functions = List.copyOf(b.functions);
        List<String> problems = problems();
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("the deployment cannot be synthesized:\n  - "
                    + String.join("\n  - ", problems));
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Quarkus's {@code target/function.zip}, JVM or native. */
    public Path artifact() {
        return artifact;
    }

    /** Stem of every named resource: {@code <prefix>-urls}, {@code <prefix>-fetch.fifo}, {@code <prefix>/clients}. */
    public String resourcePrefix() {
        return resourcePrefix;
    }

    /** The CPU for a JVM build; empty for the default. A native build's own architecture always wins. */
    public Optional<CpuArchitecture> architecture() {
        return architecture;
    }

    public ApiAuth auth() {
        return auth;
    }

    /** The JWT claim naming the client. */
    public String clientClaim() {
        return clientClaim;
    }

    public Optional<String> userAgent() {
        return userAgent;
    }

    public Optional<String> robotsAgent() {
        return robotsAgent;
    }

    public Optional<List<String>> callbackHosts() {
        return callbackHosts;
    }

    /** The JWT groups (or Lambda authorizer groups) whose members are admins (ADR 10); none by default. */
    public List<String> adminGroups() {
        return adminGroups;
    }

    /** The IAM role ARNs whose callers are admins (ADR 10); none by default. */
    public List<String> adminRoles() {
        return adminRoles;
    }

    /** Each client's default URLs a day; the functions' default (0, none) when empty. */
    public Optional<Long> quotaUrlsPerDay() {
        return quotaUrlsPerDay;
    }

    public Optional<Duration> lostAfter() {
        return lostAfter;
    }

    /** Local files shipped in a layer, by the key that names each one's path. */
    public Map<ConfigKey<?>, Path> siteLists() {
        return siteLists;
    }

    public int logRetentionDays() {
        return logRetentionDays;
    }

    public double throttleRateLimit() {
        return throttleRateLimit;
    }

    public int throttleBurstLimit() {
        return throttleBurstLimit;
    }

    public Set<Queue> omittedQueues() {
        return omittedQueues;
    }

    public boolean deletionProtection() {
        return deletionProtection;
    }

    public boolean bucketVersioning() {
        return bucketVersioning;
    }

    public Optional<Duration> contentExpiry() {
        return contentExpiry;
    }

    /** The most concurrent invocations {@code function}'s queue mapping may start: the deployment's, else the catalog's. */
    public Optional<Integer> maxConcurrency(FunctionSpec function) {
        if (maxConcurrency.containsKey(function.name())) {
            return Optional.of(maxConcurrency.get(function.name()));
        }
        return function.source() instanceof EventSource.QueueSource q ? q.maxConcurrency() : Optional.empty();
    }

    /** The concurrency reserved for {@code function}: the deployment's, else the catalog's; empty for none. */
    public Optional<Integer> reservedConcurrency(FunctionSpec function) {
        return Optional.ofNullable(reservedConcurrency.get(function.name())).or(function::reservedConcurrency);
    }

    /** How old the oldest due frontier entry may get before the lag alarm fires. */
    public Duration frontierLagAlarm() {
        return frontierLagAlarm;
    }

    /** The catalog's functions; a test may add entries to show they need nothing else. */
    public List<FunctionSpec> functions() {
        return functions;
    }

    private List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (!RESOURCE_PREFIX.matcher(resourcePrefix).matches()) {
            problems.add("resource prefix '" + resourcePrefix + "' must be 1-30 lower-case letters, digits or dashes,"
                    + " starting with a letter");
        }
        // Without a lost-after from the deployment the functions' own default applies, which the functions'
        // tests hold to the catalog; every other check still runs.
        problems.addAll(Catalog.problems(functions, lostAfter.orElse(LOST_AFTER_UNCHECKED)));
        if (clientClaim.isBlank()) {
            problems.add("the client claim must not be blank");
        }
        userAgent.ifPresent(ua -> robotsAgent.ifPresent(token -> {
            if (!ua.toLowerCase().contains(token.toLowerCase())) {
                problems.add("the User-Agent '" + ua + "' must contain the robots.txt agent token '" + token
                        + "' (RFC 9309), or sites cannot tell which rules apply to it");
            }
        }));
        if (!LogRetention.offered(logRetentionDays)) {
            problems.add("log retention " + logRetentionDays + " days is not a period CloudWatch Logs offers");
        }
        if (!(throttleRateLimit > 0) || throttleBurstLimit < 1) {
            problems.add("API throttling needs a positive rate and burst, was " + throttleRateLimit + "/s, burst "
                    + throttleBurstLimit);
        }
        siteLists.forEach((key, file) -> {
            if (!Files.isRegularFile(file)) {
                problems.add(key + ": no file at " + file.toAbsolutePath());
            }
        });
        for (Queue queue : omittedQueues) {
            if (queue.configKey().map(k -> !k.optional()).orElse(false)) {
                problems.add(queue + " cannot be left out: functions need its URL (" + queue.configKey().get() + ")");
            }
            functions.stream().filter(f -> f.source() instanceof EventSource.QueueSource q && q.queue() == queue)
                    .forEach(f -> problems.add(queue + " cannot be left out: " + f.name() + " consumes it"));
            if (queue.isDeadLetterQueue()) {
                problems.add(queue + " cannot be left out: it is a dead-letter queue");
            }
        }
        maxConcurrency.forEach((name, limit) -> {
            Optional<FunctionSpec> function = functions.stream().filter(f -> f.name().equals(name)).findFirst();
            if (function.isEmpty() || !(function.get().source() instanceof EventSource.QueueSource)) {
                problems.add("maximum concurrency for " + name + ": not a queue-driven function of the catalog");
            }
            if (limit < 2 || limit > 1000) {
                problems.add("maximum concurrency for " + name + " must be 2-1000 (Lambda's limits), was " + limit);
            }
        });
        reservedConcurrency.forEach((name, limit) -> {
            if (functions.stream().noneMatch(f -> f.name().equals(name))) {
                problems.add("reserved concurrency for " + name + ": not a function of the catalog");
            }
            if (limit < 1) {
                problems.add("reserved concurrency for " + name + " must be at least 1, was " + limit);
            }
        });
        Catalog.reservationProblem(functions.stream().mapToInt(f -> reservedConcurrency(f).orElse(0)).sum())
                .ifPresent(problems::add);
        contentExpiry.filter(d -> d.toDays() < 1 || !d.equals(Duration.ofDays(d.toDays())))
                .ifPresent(d -> problems.add("content expiry must be a whole number of days, was " + d));
        if (frontierLagAlarm.isNegative() || frontierLagAlarm.isZero()) {
            problems.add("the frontier lag alarm threshold must be positive, was " + frontierLagAlarm);
        }
        return problems;
    }

    public static final class Builder {
        private Path artifact;
        private String resourcePrefix = "spiderling";
        private Optional<CpuArchitecture> architecture = Optional.empty();
        private ApiAuth auth;
        private String clientClaim = "sub";
        private Optional<String> userAgent = Optional.empty();
        private Optional<String> robotsAgent = Optional.empty();
        private Optional<List<String>> callbackHosts = Optional.empty();
        private List<String> adminGroups = List.of();
        private List<String> adminRoles = List.of();
        private Optional<Long> quotaUrlsPerDay = Optional.empty();
        private Optional<Duration> lostAfter = Optional.empty();
        private final Map<ConfigKey<?>, Path> siteLists = new LinkedHashMap<>();
        private int logRetentionDays = 30;
        private double throttleRateLimit = 50;
        private int throttleBurstLimit = 100;
        private final Set<Queue> omittedQueues = EnumSet.noneOf(Queue.class);
        private boolean deletionProtection;
        private boolean bucketVersioning;
        private Optional<Duration> contentExpiry = Optional.empty();
        private final Map<String, Integer> maxConcurrency = new LinkedHashMap<>();
        private final Map<String, Integer> reservedConcurrency = new LinkedHashMap<>();
        private Duration frontierLagAlarm = Duration.ofSeconds(900);
        private List<FunctionSpec> functions = Catalog.FUNCTIONS;

        private Builder() {}

        public Builder artifact(Path zip) {
            this.artifact = zip;
            return this;
        }

        public Builder resourcePrefix(String prefix) {
            this.resourcePrefix = Objects.requireNonNull(prefix);
            return this;
        }

        public Builder architecture(CpuArchitecture cpu) {
            this.architecture = Optional.of(cpu);
            return this;
        }

        public Builder auth(ApiAuth auth) {
            this.auth = auth;
            return this;
        }

        public Builder clientClaim(String claim) {
            this.clientClaim = Objects.requireNonNull(claim);
            return this;
        }

        public Builder userAgent(String userAgent) {
            this.userAgent = Optional.of(userAgent);
            return this;
        }

        public Builder robotsAgent(String token) {
            this.robotsAgent = Optional.of(token);
            return this;
        }

        public Builder callbackHosts(List<String> hosts) {
            this.callbackHosts = Optional.of(hosts);
            return this;
        }

        public Builder adminGroups(List<String> groups) {
            this.adminGroups = groups;
            return this;
        }

        public Builder adminRoles(List<String> roles) {
            this.adminRoles = roles;
            return this;
        }

        public Builder quotaUrlsPerDay(long urls) {
            this.quotaUrlsPerDay = Optional.of(urls);
            return this;
        }

        public Builder lostAfter(Duration lostAfter) {
            this.lostAfter = Optional.of(lostAfter);
            return this;
        }

        /** Ships {@code file} in the site-lists layer and sets {@code key} to its path there. */
        public Builder siteList(ConfigKey<?> key, Path file) {
            this.siteLists.put(key, file);
            return this;
        }

        public Builder logRetentionDays(int days) {
            this.logRetentionDays = days;
            return this;
        }

        public Builder throttle(double rateLimit, int burstLimit) {
            this.throttleRateLimit = rateLimit;
            this.throttleBurstLimit = burstLimit;
            return this;
        }

        /** Leaves {@code queue} out; only a queue no function needs may go (the events queue). */
        public Builder withoutQueue(Queue queue) {
            this.omittedQueues.add(queue);
            return this;
        }

        public Builder deletionProtection(boolean on) {
            this.deletionProtection = on;
            return this;
        }

        public Builder bucketVersioning(boolean on) {
            this.bucketVersioning = on;
            return this;
        }

        public Builder contentExpiry(Duration after) {
            this.contentExpiry = Optional.of(after);
            return this;
        }

        /** Overrides the catalog's maximum concurrency of a queue-driven function's mapping. */
        public Builder maxConcurrency(String function, int limit) {
            this.maxConcurrency.put(function, limit);
            return this;
        }

        /** Reserves {@code limit} concurrent executions for {@code function}, in place of the catalog's figure. */
        public Builder reservedConcurrency(String function, int limit) {
            this.reservedConcurrency.put(function, limit);
            return this;
        }

        public Builder frontierLagAlarm(Duration threshold) {
            this.frontierLagAlarm = Objects.requireNonNull(threshold);
            return this;
        }

        public Builder functions(List<FunctionSpec> functions) {
            this.functions = Objects.requireNonNull(functions);
            return this;
        }

        /** @throws IllegalArgumentException listing every problem with the choices */
        public SpiderlingStackProps build() {
            return new SpiderlingStackProps(this);
        }
    }
}
