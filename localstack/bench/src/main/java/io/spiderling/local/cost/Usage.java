package io.spiderling.local.cost;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * What the functions and the rest of the JVM used of AWS, by account (the function whose invocation made the call, or
 * who else did), as {@link Metering} counted it up to a moment. Subtract two to get a phase.
 *
 * @param calls requests and billed units, by account, service and operation
 * @param invocations Lambda invocations, billed duration and log bytes, by account
 * @param storedBytes bytes written to S3 (successful PutObject), by the key's first path segment ({@code content/})
 * @param keys the pipeline's DynamoDB units per partition-key value
 * @param shapeCalls the pipeline's DynamoDB calls by account, operation and the key shapes each touched
 *     ({@link #shapes}): what the calls per URL are spent on
 */
public record Usage(Map<Call, Calls> calls, Map<Account, Invocations> invocations, Map<String, Long> storedBytes,
        Map<Key, KeyLoad> keys, Map<Call, Long> shapeCalls) {

    public static final Usage NONE = new Usage(Map.of(), Map.of(), Map.of(), Map.of(), Map.of());

    public Usage {
        calls = sorted(calls);
        invocations = sorted(invocations);
        storedBytes = sorted(storedBytes);
        keys = java.util.Collections.unmodifiableMap(new java.util.HashMap<>(keys));
        shapeCalls = sorted(shapeCalls);
    }

    /** Usage with no figures per key. */
    public Usage(Map<Call, Calls> calls, Map<Account, Invocations> invocations, Map<String, Long> storedBytes) {
        this(calls, invocations, storedBytes, Map.of(), Map.of());
    }

    /**
     * The {@link Call} that counts a DynamoDB call by what it touched: its operation followed by the distinct shapes
     * of its keys, table first ({@code TransactWriteItems sites:COUNT#<site>+sites:F#<site>}).
     */
    public static Call shapes(Account account, String operation, java.util.Collection<Key> keys) {
        java.util.SortedSet<String> shapes = new java.util.TreeSet<>();
        // A transaction names one key many times (a site's entries): each distinct key's shape is matched once.
        new java.util.HashSet<>(keys).forEach(k -> shapes.add(k.table() + ":" + k.shape().label()));
        return new Call(account, "DynamoDB", operation + " " + (shapes.isEmpty() ? "(no key)"
                : String.join("+", shapes)));
    }

    /**
     * A partition-key value of a table: where DynamoDB puts an item, and what its per-partition limits apply to.
     *
     * @param table the catalog's name of the table ({@code batches}), or the table's name if it is not the catalog's
     * @param key the partition-key value as text, or a pseudo-key ({@link KeyShape#SCAN_KEY})
     */
    public record Key(String table, String key) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int c = table.compareTo(o.table);
            return c != 0 ? c : key.compareTo(o.key);
        }

        public KeyShape shape() {
            return KeyShape.of(table, key);
        }
    }

    /** The read and write request units charged to one key, as AWS bills them ({@code KeyAttribution}). */
    public record KeyLoad(double readUnits, double writeUnits) {
        public static final KeyLoad NONE = new KeyLoad(0, 0);

        public KeyLoad plus(KeyLoad o) {
            return new KeyLoad(readUnits + o.readUnits, writeUnits + o.writeUnits);
        }

        KeyLoad minus(KeyLoad o) {
            return new KeyLoad(readUnits - o.readUnits, writeUnits - o.writeUnits);
        }

        boolean isZero() {
            return Math.abs(readUnits) < 1e-9 && Math.abs(writeUnits) < 1e-9;
        }
    }

    /**
     * @param service as billed: {@code DynamoDB}, {@code SQS standard}, {@code SQS FIFO}, {@code S3},
     *     {@code API Gateway}
     * @param operation the SDK's operation name, refined where it prices differently ({@code ReceiveMessage (empty)})
     */
    public record Call(Account account, String service, String operation) implements Comparable<Call> {
        @Override
        public int compareTo(Call o) {
            int c = account.compareTo(o.account);
            c = c != 0 ? c : service.compareTo(o.service);
            return c != 0 ? c : operation.compareTo(o.operation);
        }
    }

    /**
     * @param calls SDK calls (one however many times the SDK retried it)
     * @param billedRequests requests as the service bills them: SQS counts each 64 KB of payload, the others one a call
     * @param readUnits DynamoDB read request units as AWS bills them
     * @param writeUnits DynamoDB write request units as AWS bills them
     * @param refused conditional writes (and transactions) a condition refused
     */
    public record Calls(long calls, long billedRequests, double readUnits, double writeUnits, long refused) {
        public static final Calls NONE = new Calls(0, 0, 0, 0, 0);

        public Calls plus(Calls o) {
            return new Calls(calls + o.calls, billedRequests + o.billedRequests, readUnits + o.readUnits,
                    writeUnits + o.writeUnits, refused + o.refused);
        }

        Calls minus(Calls o) {
            return new Calls(calls - o.calls, billedRequests - o.billedRequests, readUnits - o.readUnits,
                    writeUnits - o.writeUnits, refused - o.refused);
        }

        boolean isZero() {
            return calls == 0 && billedRequests == 0 && readUnits == 0 && writeUnits == 0 && refused == 0;
        }
    }

    /**
     * @param count handler invocations
     * @param billedMillis their durations, each rounded up to the millisecond, summed
     * @param gbSeconds billed duration times the function's memory
     * @param logBytes what the invocations logged, Lambda's own START/END/REPORT lines included
     */
    public record Invocations(long count, long billedMillis, double gbSeconds, long logBytes) {
        public static final Invocations NONE = new Invocations(0, 0, 0, 0);

        public Invocations plus(Invocations o) {
            return new Invocations(count + o.count, billedMillis + o.billedMillis, gbSeconds + o.gbSeconds,
                    logBytes + o.logBytes);
        }

        Invocations minus(Invocations o) {
            return new Invocations(count - o.count, billedMillis - o.billedMillis, gbSeconds - o.gbSeconds,
                    logBytes - o.logBytes);
        }

        boolean isZero() {
            return count == 0 && billedMillis == 0 && logBytes == 0;
        }
    }

    /** What happened between {@code before} and this. */
    public Usage minus(Usage before) {
        return new Usage(difference(calls, before.calls, Calls.NONE, Calls::minus, Calls::isZero),
                difference(invocations, before.invocations, Invocations.NONE, Invocations::minus, Invocations::isZero),
                difference(storedBytes, before.storedBytes, 0L, (a, b) -> a - b, v -> v == 0),
                difference(keys, before.keys, KeyLoad.NONE, KeyLoad::minus, KeyLoad::isZero),
                difference(shapeCalls, before.shapeCalls, 0L, (a, b) -> a - b, v -> v == 0));
    }

    /** Only the accounts that match; the figures per key, which are the pipeline's ({@link Metering}), stay. */
    public Usage accounts(Predicate<Account> keep) {
        Map<Call, Calls> c = new TreeMap<>();
        calls.forEach((k, v) -> {
            if (keep.test(k.account())) {
                c.put(k, v);
            }
        });
        Map<Account, Invocations> i = new TreeMap<>();
        invocations.forEach((k, v) -> {
            if (keep.test(k)) {
                i.put(k, v);
            }
        });
        Map<Call, Long> s = new TreeMap<>();
        shapeCalls.forEach((k, v) -> {
            if (keep.test(k.account())) {
                s.put(k, v);
            }
        });
        return new Usage(c, i, storedBytes, keys, s);
    }

    /** A service's operation, as {@link Call} names it, whoever called it. */
    public record Operation(String service, String operation) implements Comparable<Operation> {
        @Override
        public int compareTo(Operation o) {
            int c = service.compareTo(o.service);
            return c != 0 ? c : operation.compareTo(o.operation);
        }
    }

    /** Calls summed over the accounts, by service and operation. */
    public Map<Operation, Calls> byOperation() {
        Map<Operation, Calls> sum = new TreeMap<>();
        calls.forEach((k, v) -> sum.merge(new Operation(k.service(), k.operation()), v, Calls::plus));
        return sum;
    }

    /** Calls summed over the accounts and operations, by service. */
    public Map<String, Calls> byService() {
        Map<String, Calls> sum = new TreeMap<>();
        calls.forEach((k, v) -> sum.merge(k.service(), v, Calls::plus));
        return sum;
    }

    /** Calls summed by account. */
    public Map<Account, Calls> byAccount(Predicate<String> service) {
        Map<Account, Calls> sum = new TreeMap<>();
        calls.forEach((k, v) -> {
            if (service.test(k.service())) {
                sum.merge(k.account(), v, Calls::plus);
            }
        });
        return sum;
    }

    /** Every call summed. */
    public Calls total(Predicate<String> service) {
        return calls.entrySet().stream().filter(e -> service.test(e.getKey().service())).map(Map.Entry::getValue)
                .reduce(Calls.NONE, Calls::plus);
    }

    public Invocations totalInvocations() {
        return invocations.values().stream().reduce(Invocations.NONE, Invocations::plus);
    }

    private static <K, V> Map<K, V> difference(Map<K, V> after, Map<K, V> before, V zero, BiFunction<V, V, V> minus,
            Predicate<V> isZero) {
        Map<K, V> d = new TreeMap<>();
        after.forEach((k, v) -> {
            V diff = minus.apply(v, before.getOrDefault(k, zero));
            if (!isZero.test(diff)) {
                d.put(k, diff);
            }
        });
        return d;
    }

    private static <K, V> Map<K, V> sorted(Map<K, V> map) {
        return java.util.Collections.unmodifiableMap(new TreeMap<>(map));
    }
}
