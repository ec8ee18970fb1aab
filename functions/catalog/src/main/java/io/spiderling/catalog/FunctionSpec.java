package io.spiderling.catalog;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One function of the catalog: its handler, what invokes it, its size, and everything it may touch. The CDK stack
 * builds the function, its event source, its environment and its IAM grants from this; the local runner wires the
 * event source; the tests check the handler reads exactly {@link #configKeys()}.
 *
 * @param name the handler's {@code @Named} value
 * @param settings configuration keys read besides resource names and AWS endpoints (which {@link #configKeys()}
 *     derives from the permissions below)
 * @param permissions every action its code calls on the deployment's tables, indexes, bucket prefixes, queues and
 *     secrets; its role is granted these and nothing else
 * @param wiredOnly what use cases the function's pipeline builds whole, but calls only in part, would call: their
 *     resources are in its configuration (so the use case can be built), not in its role
 * @param sampleEvents files under {@code events/} with events this function receives
 * @param reservedConcurrency concurrency reserved for the function, which is also the most it may use; empty for
 *     none (it shares the account's unreserved pool). See {@link Catalog} for the model
 */
public record FunctionSpec(String name, String description, EventSource source, int memoryMb, Duration timeout,
        Set<ConfigKey<?>> settings, Set<Permission> permissions, Set<Permission> wiredOnly,
        List<String> sampleEvents, Optional<Integer> reservedConcurrency) {

    public FunctionSpec {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(reservedConcurrency, "reservedConcurrency");
        settings = Collections.unmodifiableSet(new LinkedHashSet<>(settings));
        permissions = Collections.unmodifiableSet(new TreeSet<>(permissions));
        wiredOnly = Collections.unmodifiableSet(new TreeSet<>(wiredOnly));
        sampleEvents = List.copyOf(sampleEvents);
    }

    public static Builder named(String name) {
        return new Builder(name);
    }

    /** What the function's configuration names: what it is granted, and what it is only wired with. */
    private Set<Permission> configured() {
        Set<Permission> configured = new TreeSet<>(permissions);
        configured.addAll(wiredOnly);
        return configured;
    }

    /** The tables the function is configured with: those it uses, whatever it does with them. */
    public Set<Table> tables() {
        Set<Table> tables = EnumSet.noneOf(Table.class);
        configured().forEach(p -> {
            if (p instanceof Permission.OnTable t) {
                tables.add(t.table());
            }
        });
        return Collections.unmodifiableSet(tables);
    }

    /** The queues the function is configured to send to. */
    public Set<Queue> sends() {
        Set<Queue> queues = EnumSet.noneOf(Queue.class);
        configured().forEach(p -> {
            if (p instanceof Permission.SendsTo s) {
                queues.add(s.queue());
            }
        });
        return Collections.unmodifiableSet(queues);
    }

    /** The bucket prefixes the function is configured with. */
    public Set<BucketPrefix> objects() {
        Set<BucketPrefix> prefixes = EnumSet.noneOf(BucketPrefix.class);
        configured().forEach(p -> {
            if (p instanceof Permission.OnObjects o) {
                prefixes.add(o.prefix());
            }
        });
        return Collections.unmodifiableSet(prefixes);
    }

    /** The secrets the function is configured with. */
    public Set<Secret> secrets() {
        Set<Secret> secrets = EnumSet.noneOf(Secret.class);
        configured().forEach(p -> {
            if (p instanceof Permission.ReadsSecret r) {
                secrets.add(r.secret());
            }
        });
        return Collections.unmodifiableSet(secrets);
    }

    /**
     * Every configuration key the function reads: the log format, its settings, the names of the resources it uses,
     * and the AWS region, local credentials and endpoint of each AWS API it calls.
     */
    public Set<ConfigKey<?>> configKeys() {
        Set<ConfigKey<?>> keys = new LinkedHashSet<>(settings);
        keys.add(ConfigKeys.LOG_FORMAT);
        Set<Table> tables = tables();
        Set<Queue> sends = sends();
        Set<BucketPrefix> objects = objects();
        Set<Secret> secrets = secrets();
        tables.forEach(t -> keys.add(t.configKey()));
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
        private final Set<Permission> permissions = new TreeSet<>();
        private final Set<Permission> wiredOnly = new TreeSet<>();
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

        /** The code calls {@code actions} on {@code table}'s items (a transaction's items count as their actions). */
        public Builder table(Table table, DynamoDbAction... actions) {
            for (DynamoDbAction action : actions) {
                permissions.add(new Permission.OnTable(table, Optional.empty(), action));
            }
            return this;
        }

        /** The code queries {@code table}'s index {@code index}. */
        public Builder index(Table table, String index, DynamoDbAction action) {
            permissions.add(new Permission.OnTable(table, Optional.of(index), action));
            return this;
        }

        /** The code sends to {@code queues}. */
        public Builder sends(Queue... queues) {
            for (Queue queue : queues) {
                permissions.add(new Permission.SendsTo(queue));
            }
            return this;
        }

        /** The code calls {@code actions} on the objects under {@code prefix}, or presigns URLs for them. */
        public Builder objects(BucketPrefix prefix, S3Action... actions) {
            for (S3Action action : actions) {
                permissions.add(new Permission.OnObjects(prefix, action));
            }
            return this;
        }

        /** The code reads {@code secret}'s value. */
        public Builder reads(Secret secret) {
            permissions.add(new Permission.ReadsSecret(secret));
            return this;
        }

        /** Adds {@code more}, as declared elsewhere (a copy of an entry). */
        public Builder permissions(Iterable<Permission> more) {
            more.forEach(permissions::add);
            return this;
        }

        /** Adds what a use case needs (see {@link Catalog}): its settings and its access. */
        public Builder uses(java.util.function.UnaryOperator<Builder> useCase) {
            return useCase.apply(this);
        }

        /**
         * Takes {@code useCase}'s settings and resource names, not its permissions: the function's pipeline builds
         * the use case whole (which reads them), but its handler calls only a part, declared with {@link #uses}.
         */
        public Builder wiredFor(java.util.function.UnaryOperator<Builder> useCase) {
            Builder scratch = useCase.apply(new Builder(name));
            settings.addAll(scratch.settings);
            wiredOnly.addAll(scratch.permissions);
            return this;
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
            Set<Permission> onlyWired = new TreeSet<>(wiredOnly);
            onlyWired.removeAll(permissions);
            return new FunctionSpec(name, description, source, memoryMb, timeout, settings, permissions, onlyWired,
                    sampleEvents, reservedConcurrency);
        }
    }
}
