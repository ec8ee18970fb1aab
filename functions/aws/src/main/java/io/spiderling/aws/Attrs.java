package io.spiderling.aws;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Small helpers for the low-level DynamoDB item maps, which keep the adapters free of bean introspection. */
final class Attrs {

    private Attrs() {}

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    static AttributeValue bool(boolean value) {
        return AttributeValue.fromBool(value);
    }

    static Optional<String> string(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null || v.s() == null ? Optional.empty() : Optional.of(v.s());
    }

    static Optional<Long> number(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null || v.n() == null ? Optional.empty() : Optional.of(Long.parseLong(v.n()));
    }

    /**
     * A number every item of its kind is written with: one missing is a bug (or data this code never wrote), not a
     * default.
     */
    static long requiredNumber(Map<String, AttributeValue> item, String name) {
        return number(item, name).orElseThrow(() -> missing(item, name));
    }

    /** A string every item of its kind is written with; see {@link #requiredNumber}. */
    static String requiredString(Map<String, AttributeValue> item, String name) {
        return string(item, name).orElseThrow(() -> missing(item, name));
    }

    private static IllegalStateException missing(Map<String, AttributeValue> item, String name) {
        return new IllegalStateException("item " + item.get("pk") + " / " + item.get("sk") + " has no " + name);
    }

    static long number(Map<String, AttributeValue> item, String name, long fallback) {
        return number(item, name).orElse(fallback);
    }

    static boolean bool(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v != null && Boolean.TRUE.equals(v.bool());
    }

    /** Instants are stored as epoch milliseconds, so conditions can compare them numerically. */
    static Optional<Instant> instant(Map<String, AttributeValue> item, String name) {
        return number(item, name).map(Instant::ofEpochMilli);
    }
}
