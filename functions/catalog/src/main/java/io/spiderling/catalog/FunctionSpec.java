package io.spiderling.catalog;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One function of the catalog: its handler, what invokes it, its size, and everything it may touch. The CDK stack
 * builds the function, its event source, its environment and its IAM grants from this; the local runner wires the
 * event source; the tests check the handler reads exactly {@link #configKeys()}.
 *
 * @param name the handler's {@code @Named} value
 * @param settings configuration keys read besides resource names and AWS endpoints (which {@link #configKeys()}
 *     derives from the access below)
 * @param tables tables the function uses, and how
 * @param sends queues the function sends to
 * @param objects bucket prefixes the function uses, and how
 * @param secrets secrets the function reads
 * @param sampleEvents files under {@code events/} with events this function receives
 * @param reservedConcurrency concurrency reserved for the function, which is also the most it may use; empty for
 *     none (it shares the account's unreserved pool). See {@link Catalog} for the model
 */
public record FunctionSpec(String name, String description, EventSource source, int memoryMb, Duration timeout,
        Set<ConfigKey<?>> settings, Map<Table, Access> tables, Set<Queue> sends, Map<BucketPrefix, Access> objects,
        Set<Secret> secrets, List<String> sampleEvents, Optional<Integer> reservedConcurrency) {

    public FunctionSpec {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(reservedConcurrency, "reservedConcurrency");
        settings = Collections.unmodifiableSet(new LinkedHashSet<>(settings));
        tables = Collections.unmodifiableMap(new EnumMap<>(tables.isEmpty() ? new EnumMap<>(Table.class) : tables));
        sends = Collections.unmodifiableSet(sends.isEmpty() ? EnumSet.noneOf(Queue.class) : EnumSet.copyOf(sends));
        objects = Collections.unmodifiableMap(objects.isEmpty() ? new EnumMap<>(BucketPrefix.class)
                : new EnumMap<>(objects));
        secrets = Collections.unmodifiableSet(secrets.isEmpty() ? EnumSet.noneOf(Secret.class)
                : EnumSet.copyOf(secrets));
        sampleEvents = List.copyOf(sampleEvents);
    }

    public static Builder named(String name) {
        return new Builder(name);
    }

    /**
     * Every configuration key the function reads: the log format, its settings, the names of the resources it uses,
     * and the AWS region, local credentials and endpoint of each AWS API it calls.
     */
    public Set<ConfigKey<?>> configKeys() {
        Set<ConfigKey<?>> keys = new LinkedHashSet<>(settings);
        keys.add(ConfigKeys.LOG_FORMAT);
        tables.keySet().forEach(t -> keys.add(t.configKey()));
        sends.forEach(q -> q.configKey().ifPresent(keys::add));
        if (!objects.isEmpty()) {
            keys.add(ConfigKeys.BUCKET);
        }
        secrets.forEach(s -> keys.add(s.configKey()));
        if (!tables.isEmpty() || !sends.isEmpty() || !objects.isEmpty() || !secrets.isEmpty()) {
            keys.addAll(ConfigKeys.AWS_COMMON);
        }
        if (!tables.isEmpty()) {
            keys.add(ConfigKeys.AWS_ENDPOINT_DYNAMODB);
        }
        if (!sends.isEmpty()) {
            keys.add(ConfigKeys.AWS_ENDPOINT_SQS);
        }
        if (!objects.isEmpty()) {
            keys.add(ConfigKeys.AWS_ENDPOINT_S3);
        }
        if (!secrets.isEmpty()) {
            keys.add(ConfigKeys.AWS_ENDPOINT_SECRETSMANAGER);
        }
        return Collections.unmodifiableSet(keys);
    }

    /**
     * The function's environment variables in a deployment that gives {@code values}: each of its
     * {@link #configKeys()} the deployment has a value for, under {@link ConfigKey#envName()}. A key left out keeps
     * the function's own default. The CDK stack and the native check both build environments this way.
     */
    public Map<String, String> environment(Map<ConfigKey<?>, String> values) {
        Map<String, String> environment = new java.util.LinkedHashMap<>();
        for (ConfigKey<?> key : configKeys()) {
            String value = values.get(key);
            if (value != null) {
                environment.put(key.envName(), value);
            }
        }
        return environment;
    }

    /** The HTTP routes this function serves; empty unless its source is {@link EventSource.Http}. */
    public List<Route> routes() {
        return source instanceof EventSource.Http ? Routes.of(name) : List.of();
    }

    /** Builds an entry a property at a time, so the catalog reads as a description. */
    public static final class Builder {
        private final String name;
        private String description = "";
        private EventSource source;
        private int memoryMb = 512;
        private Duration timeout = Duration.ofSeconds(60);
        private final Set<ConfigKey<?>> settings = new LinkedHashSet<>();
        private final Map<Table, Access> tables = new EnumMap<>(Table.class);
        private final Set<Queue> sends = EnumSet.noneOf(Queue.class);
        private final Map<BucketPrefix, Access> objects = new EnumMap<>(BucketPrefix.class);
        private final Set<Secret> secrets = EnumSet.noneOf(Secret.class);
        private final List<String> sampleEvents = new ArrayList<>();
        private Optional<Integer> reservedConcurrency = Optional.empty();

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        public Builder description(String text) {
            this.description = text;
            return this;
        }

        public Builder source(EventSource source) {
            this.source = source;
            return this;
        }

        public Builder memoryMb(int memoryMb) {
            this.memoryMb = memoryMb;
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        public Builder settings(ConfigKey<?>... keys) {
            settings.addAll(List.of(keys));
            return this;
        }

        public Builder table(Table table, Access access) {
            tables.merge(table, access, Access::union);
            return this;
        }

        public Builder sends(Queue... queues) {
            sends.addAll(List.of(queues));
            return this;
        }

        public Builder objects(BucketPrefix prefix, Access access) {
            objects.merge(prefix, access, Access::union);
            return this;
        }

        public Builder reads(Secret secret) {
            secrets.add(secret);
            return this;
        }

        /** Adds what a use case needs (see {@link Catalog}): its settings and its access. */
        public Builder uses(java.util.function.UnaryOperator<Builder> useCase) {
            return useCase.apply(this);
        }

        /** Reserves {@code concurrency} of the account's for the function, and caps it there. */
        public Builder reservedConcurrency(int concurrency) {
            this.reservedConcurrency = Optional.of(concurrency);
            return this;
        }

        public Builder sampleEvents(String... files) {
            sampleEvents.addAll(List.of(files));
            return this;
        }

        public FunctionSpec build() {
            return new FunctionSpec(name, description, source, memoryMb, timeout, settings, tables, sends, objects,
                    secrets, sampleEvents, reservedConcurrency);
        }
    }
}
