package io.spiderling.local.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.local.cost.CapacityUnits.Consistency;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class CapacityUnitsTest {

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/cost/item-sizes.csv", numLinesToSkip = 1, quoteCharacter = '\'')
    void itemSize_whenTableCase_countsNamesAndValuesAsDynamoDbDoes(String rule, String item, long bytes) {
        assertEquals(bytes, CapacityUnits.itemSize(DynamoDbJson.item(item)), rule);
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/cost/write-units.csv", numLinesToSkip = 1)
    void appliedWriteUnits_whenTableCase_billsTheLargerItemPerStartedKb(String rule, Long before, Long after,
            long expected) {
        assertEquals(expected, CapacityUnits.appliedWriteUnits(Optional.ofNullable(before),
                Optional.ofNullable(after)), rule);
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/cost/refused-write-units.csv", numLinesToSkip = 1)
    void refusedWriteUnits_whenTableCase_stillBillsTheItem(String rule, Long existing, Long attempted, long expected) {
        assertEquals(expected, CapacityUnits.refusedWriteUnits(Optional.ofNullable(existing),
                Optional.ofNullable(attempted)), rule);
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/cost/index-write-units.csv", numLinesToSkip = 1)
    void indexWriteUnits_whenTableCase_billsEachIndexWrite(String rule, Long before, Long after, boolean keyChanged,
            long expected) {
        assertEquals(expected, CapacityUnits.indexWriteUnits(Optional.ofNullable(before), Optional.ofNullable(after),
                keyChanged), rule);
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/cost/read-units.csv", numLinesToSkip = 1)
    void readUnits_whenTableCase_roundsAsTheOperationDoes(String rule, String operation, String itemBytes,
            Consistency consistency, double expected) {
        List<Long> sizes = itemBytes == null ? List.of()
                : Arrays.stream(itemBytes.split(";")).map(Long::parseLong).toList();
        long sum = sizes.stream().mapToLong(Long::longValue).sum();
        double units = switch (operation) {
            case "get" -> CapacityUnits.getUnits(sum, consistency);
            case "batch" -> CapacityUnits.batchGetUnits(sizes, consistency);
            case "query" -> CapacityUnits.queryUnits(sum, consistency);
            default -> throw new IllegalArgumentException(operation);
        };

        assertEquals(expected, units, 1e-9, rule);
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/cost/write-units.csv", numLinesToSkip = 1)
    void transactional_whenTableCase_billsTwiceTheStandardWrite(String rule, Long before, Long after, long expected) {
        assertEquals(2 * expected, CapacityUnits.transactional(CapacityUnits.appliedWriteUnits(
                Optional.ofNullable(before), Optional.ofNullable(after))), rule);
    }
}
