package io.spiderling.local.cost;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * How DynamoDB sizes items and bills request units, in one place. Pure functions of sizes; {@link DynamoDbBilling}
 * applies them to the calls the pipeline makes.
 *
 * <p>Sources (read 2026-11-24):
 * <ul>
 *   <li>Item sizes: "Item sizes and formats", docs.aws.amazon.com/amazondynamodb/latest/developerguide/
 *       CapacityUnitCalculations.html: the sum of the attribute names' UTF-8 lengths and the values' sizes; strings
 *       their UTF-8 bytes; numbers 1 byte per two significant digits plus 1; binaries their raw bytes; booleans and
 *       nulls 1; lists and maps 3 bytes plus 1 byte per element plus the elements; sets the sum of the elements.</li>
 *   <li>Request units: "DynamoDB read and write operations", docs.aws.amazon.com/amazondynamodb/latest/developerguide/
 *       read-write-operations.html: writes 1 unit per started 1 KB of the larger of the item before and after
 *       (PutItem, UpdateItem), of the deleted item (DeleteItem), per item for BatchWriteItem; a refused conditional
 *       write still consumes units for the size of the item (existing, or the one being written); reads 1 unit per
 *       started 4 KB strongly consistent, half eventually consistent, two transactional; BatchGetItem rounds each
 *       item, Query and Scan round the sum of the items read (evaluated, before any filter); reading nothing still
 *       costs the minimum.</li>
 *   <li>Transactions: "Amazon DynamoDB Transactions: How it works", capacity management: every item is read or
 *       written twice, to prepare and to commit (2 units per started KB written, 2 per started 4 KB read).</li>
 *   <li>Local secondary indexes: "Local secondary indexes", provisioned throughput considerations: a write that puts
 *       an item into an index, takes it out, or changes projected attributes costs one index write of the entry's
 *       size; one that changes the index key costs two (delete the old entry, put the new); an item in the index
 *       neither before nor after costs nothing. With projection ALL an entry is the whole item.</li>
 * </ul>
 */
public final class CapacityUnits {

    /** A write request unit covers this much of an item. */
    public static final int WRITE_UNIT_BYTES = 1024;
    /** A read request unit covers this much, strongly consistent. */
    public static final int READ_UNIT_BYTES = 4096;

    private CapacityUnits() {}

    /** How a read is made; the factor multiplies the strongly consistent units. */
    public enum Consistency {
        EVENTUAL(0.5), STRONG(1), TRANSACTIONAL(2);

        private final double factor;

        Consistency(double factor) {
            this.factor = factor;
        }

        public static Consistency of(Boolean consistentRead) {
            return Boolean.TRUE.equals(consistentRead) ? STRONG : EVENTUAL;
        }
    }

    /** The item's size as DynamoDB counts it for capacity. */
    public static long itemSize(Map<String, AttributeValue> item) {
        long size = 0;
        for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
            size += utf8(attribute.getKey()) + valueSize(attribute.getValue());
        }
        return size;
    }

    /** A value's size without its name. */
    public static long valueSize(AttributeValue value) {
        return switch (value.type()) {
            case S -> utf8(value.s());
            case N -> numberSize(value.n());
            case B -> value.b().asByteArrayUnsafe().length;
            case BOOL, NUL -> 1;
            case L -> 3 + value.l().stream().mapToLong(v -> valueSize(v) + 1).sum();
            case M -> 3 + value.m().entrySet().stream().mapToLong(e -> utf8(e.getKey()) + valueSize(e.getValue()) + 1)
                    .sum();
            case SS -> value.ss().stream().mapToLong(CapacityUnits::utf8).sum();
            case NS -> value.ns().stream().mapToLong(CapacityUnits::numberSize).sum();
            case BS -> value.bs().stream().mapToLong(b -> b.asByteArrayUnsafe().length).sum();
            case UNKNOWN_TO_SDK_VERSION -> throw new IllegalArgumentException("unknown attribute type: " + value);
        };
    }

    /** 1 byte per two significant digits (leading and trailing zeros trimmed), plus 1. */
    public static long numberSize(String number) {
        BigDecimal value = new BigDecimal(number.strip());
        int digits = value.signum() == 0 ? 1 : value.stripTrailingZeros().precision();
        return (digits + 1) / 2 + 1;
    }

    /** Units of one standard write of an item of {@code bytes}: 1 per started KB, at least 1. */
    public static long writeUnits(long bytes) {
        return Math.max(1, ceilDiv(bytes, WRITE_UNIT_BYTES));
    }

    /**
     * A PutItem, UpdateItem or DeleteItem that was applied: the larger of the item before and after, empty when there
     * was none (a new item, a deleted one).
     */
    public static long appliedWriteUnits(Optional<Long> before, Optional<Long> after) {
        return writeUnits(Math.max(before.orElse(0L), after.orElse(0L)));
    }

    /**
     * A conditional write that was refused: the size of the item it concerned, the existing one or the one it tried
     * to write, whichever is larger; 1 unit when there is neither (no item, and an update or delete).
     */
    public static long refusedWriteUnits(Optional<Long> existing, Optional<Long> attempted) {
        return writeUnits(Math.max(existing.orElse(0L), attempted.orElse(0L)));
    }

    /**
     * What a write costs a local secondary index, given the item's index entry before and after (empty when the item
     * has no index key then) and whether the index key changed.
     */
    public static long indexWriteUnits(Optional<Long> entryBefore, Optional<Long> entryAfter, boolean keyChanged) {
        if (entryBefore.isEmpty() && entryAfter.isEmpty()) {
            return 0;
        }
        if (entryBefore.isEmpty() || entryAfter.isEmpty()) {
            return writeUnits(entryBefore.orElseGet(entryAfter::orElseThrow));
        }
        return keyChanged ? writeUnits(entryBefore.get()) + writeUnits(entryAfter.get())
                : writeUnits(Math.max(entryBefore.get(), entryAfter.get()));
    }

    /** A transactional write: twice the standard units, prepare and commit. */
    public static long transactional(long standardUnits) {
        return 2 * standardUnits;
    }

    /** GetItem of an item of {@code bytes} (0 when there is none: a miss still costs the minimum). */
    public static double getUnits(long bytes, Consistency consistency) {
        return Math.max(1, ceilDiv(bytes, READ_UNIT_BYTES)) * consistency.factor;
    }

    /** BatchGetItem: each item rounded up on its own, then summed. */
    public static double batchGetUnits(List<Long> itemBytes, Consistency consistency) {
        return itemBytes.stream().mapToDouble(bytes -> getUnits(bytes, consistency)).sum();
    }

    /** One Query or Scan request: the items it read (before any filter) summed, then rounded up; at least 1. */
    public static double queryUnits(long bytesRead, Consistency consistency) {
        return getUnits(bytesRead, consistency);
    }

    static long utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
