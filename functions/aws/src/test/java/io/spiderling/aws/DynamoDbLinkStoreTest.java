package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.port.LinkStore;
import io.spiderling.core.port.LinkStore.Inlink;
import io.spiderling.core.port.LinkStoreContract;
import io.spiderling.core.port.LinkStore.InlinkPage;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * The port's contract ({@link LinkStoreContract}) and what is the adapter's own: the item layout, the shards, the
 * queries and writes it sends, and its retries of unprocessed writes. Tests share one table per class, so each test
 * links its own URLs (named after the test).
 */
@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbLinkStoreTest extends LinkStoreContract {

    private final EmbeddedAws aws;
    private final String table;

    DynamoDbLinkStoreTest(EmbeddedAws aws, StackResources res) {
        this.aws = aws;
        this.table = res.linksTable();
    }

    @Override
    protected LinkStore createStore() {
        return new DynamoDbLinkStore(aws.dynamoDb(), table);
    }

    private DynamoDbLinkStore links() {
        return (DynamoDbLinkStore) store;
    }

    @Test
    void replaceOutlinks_whenLinked_storesTheLinkUnderTheTargetInTheSourcesShard() {
        String source = base + "/source";
        String c = base + "/c";

        store.replaceOutlinks(hash(source), source, List.of(), List.of(c), T2);

        Map<String, AttributeValue> item = aws.dynamoDb().getItem(r -> r.tableName(table).key(Map.of(
                "target", AttributeValue.fromS(hash(c) + "#" + links().shardOf(hash(source))),
                "source", AttributeValue.fromS(hash(source))))).item();
        assertEquals(c, item.get("targetUrl").s());
        assertEquals(source, item.get("sourceUrl").s());
        assertEquals(Long.toString(T2.toEpochMilli()), item.get("seenAt").n());
    }

    @Test
    void replaceOutlinks_whenRepeated_writesNothingMore() {
        var client = new ThrottlingDynamoDb(aws.dynamoDb(), 0);
        var links = new DynamoDbLinkStore(client, table);
        String source = base + "/source";
        String a = base + "/a";
        String b = base + "/b";
        String c = base + "/c";
        links.replaceOutlinks(hash(source), source, List.of(), List.of(a, b), T1);
        links.replaceOutlinks(hash(source), source, List.of(a, b), List.of(b, c), T2);

        links.replaceOutlinks(hash(source), source, List.of(a, b), List.of(b, c), T2);
        links.replaceOutlinks(hash(source), source, List.of(b, c), List.of(b, c, b), T2);

        assertEquals(List.of(2, 2, 2), client.batchSizes, "a retry repeats its writes; an unchanged list writes none");
    }

    @Test
    void replaceOutlinks_whenManySourcesLinkToOneTarget_spreadsThemOverEveryShard() {
        String hot = base + "/hot";

        linkFromSources(hot, 300);

        int total = 0;
        for (int shard = 0; shard < DynamoDbLinkStore.DEFAULT_SHARDS; shard++) {
            String partition = hash(hot) + "#" + shard;
            int count = aws.dynamoDb().query(q -> q.tableName(table).keyConditionExpression("target = :t")
                    .expressionAttributeValues(Map.of(":t", AttributeValue.fromS(partition)))
                    .select(Select.COUNT)).count();
            assertTrue(count > 0, "shard " + shard + " holds no inlinks");
            total += count;
        }
        assertEquals(300, total);
    }

    @Test
    void inlinks_whenPagedWithLimit50_fillsEveryPageButTheLast() {
        String hot = base + "/hot";
        List<String> expected = linkFromSources(hot, 300).stream().sorted().toList();

        List<InlinkPage> pages = pageThrough(hot, 50);

        assertEquals(expected, pages.stream().flatMap(p -> p.inlinks().stream()).map(Inlink::sourceHash).toList());
        pages.subList(0, pages.size() - 1).forEach(p -> assertEquals(50, p.inlinks().size(), "only the last is short"));
    }

    @Test
    void inlinks_whenShardsHoldMoreThanTheLimit_mergesThemInHashOrderAndFillsEveryPageButTheLast() {
        String hot = base + "/hot";
        List<String> expected = linkFromSources(hot, 60).stream().sorted().toList();

        List<InlinkPage> pages = pageThrough(hot, 4);

        assertEquals(expected, pages.stream().flatMap(p -> p.inlinks().stream()).map(Inlink::sourceHash).toList());
        pages.subList(0, pages.size() - 1).forEach(p -> assertEquals(4, p.inlinks().size(), "only the last is short"));
    }

    @Test
    void inlinks_whenCursorGiven_queriesEveryShardForSourcesAfterIt() {
        var client = new ThrottlingDynamoDb(aws.dynamoDb(), 0);
        var links = new DynamoDbLinkStore(client, table);
        String target = base + "/target";
        String cursor = hash(base + "/source");
        assertEquals("target = :target", DynamoDbLinkStore.FIRST_PAGE);
        assertEquals("target = :target AND #source > :after", DynamoDbLinkStore.NEXT_PAGE);

        links.inlinks(hash(target), Optional.empty(), 20);
        links.inlinks(hash(target), Optional.of(cursor), 20);

        List<QueryRequest> first = client.queries.subList(0, 8);
        List<QueryRequest> next = client.queries.subList(8, 16);
        assertEquals(16, client.queries.size());
        for (int shard = 0; shard < 8; shard++) {
            assertEquals(DynamoDbLinkStore.FIRST_PAGE, first.get(shard).keyConditionExpression());
            assertEquals(DynamoDbLinkStore.NEXT_PAGE, next.get(shard).keyConditionExpression());
            assertEquals(Map.of("#source", "source"), next.get(shard).expressionAttributeNames());
            assertEquals(Map.of(":target", AttributeValue.fromS(hash(target) + "#" + shard),
                    ":after", AttributeValue.fromS(cursor)), next.get(shard).expressionAttributeValues());
            assertEquals(20, next.get(shard).limit());
        }
    }

    @Test
    void replaceOutlinks_whenMoreThan25Targets_writesInCallsOfAtMost25() {
        var client = new ThrottlingDynamoDb(aws.dynamoDb(), 0);
        var links = new DynamoDbLinkStore(client, table);
        String source = base + "/source";
        List<String> first = targets(0, 60);
        List<String> second = targets(30, 90);

        links.replaceOutlinks(hash(source), source, List.of(), first, T1);
        links.replaceOutlinks(hash(source), source, first, second, T2);

        assertEquals(List.of(25, 25, 10, 25, 25, 10), client.batchSizes, "60 puts, then 30 puts and 30 deletes");
        assertEquals(Set.copyOf(second), linkedFrom(source));
    }

    @Test
    void replaceOutlinks_whenDynamoLeavesWritesUnprocessed_sendsThemAgainUntilWritten() {
        var client = new ThrottlingDynamoDb(aws.dynamoDb(), 3);
        List<Long> pauses = new java.util.ArrayList<>();
        var links = new DynamoDbLinkStore(client, table, DynamoDbLinkStore.DEFAULT_SHARDS,
                new Backoff(10, 640, pauses::add));
        String source = base + "/source";

        links.replaceOutlinks(hash(source), source, List.of(), targets(0, 30), T1);

        assertEquals(List.of(25, 13, 7, 4, 5), client.batchSizes, "each throttled call writes half of what it is sent");
        assertEquals(3, pauses.size(), "one pause after each throttled call");
        assertEquals(Set.copyOf(targets(0, 30)), linkedFrom(source));
    }

    @Test
    void replaceOutlinks_whenWritesStayUnprocessed_throwsIllegalStateExceptionAfterBoundedAttempts() {
        var client = new ThrottlingDynamoDb(aws.dynamoDb(), Integer.MAX_VALUE);
        var links = new DynamoDbLinkStore(client, table, DynamoDbLinkStore.DEFAULT_SHARDS,
                new Backoff(10, 640, millis -> { }));
        String source = base + "/source";

        assertThrows(IllegalStateException.class,
                () -> links.replaceOutlinks(hash(source), source, List.of(), targets(0, 1), T1));

        assertEquals(DynamoDbLinkStore.BATCH_WRITE_ATTEMPTS, client.batchSizes.size());
    }

    @Test
    void replaceOutlinks_whenMoreThan1000Targets_throwsIllegalArgumentExceptionAndWritesNothing() {
        var client = new ThrottlingDynamoDb(aws.dynamoDb(), 0);
        var links = new DynamoDbLinkStore(client, table);
        String source = base + "/source";

        assertThrows(IllegalArgumentException.class,
                () -> links.replaceOutlinks(hash(source), source, List.of(), targets(0, 1001), T1));
        assertThrows(IllegalArgumentException.class,
                () -> links.replaceOutlinks(hash(source), source, targets(0, 1001), List.of(), T1));

        assertEquals(List.of(), client.batchSizes);
    }

    @Test
    void constructor_whenShardsOutOfRange_throwsIllegalArgumentException() {
        Stream.of(0, 257).forEach(shards -> assertThrows(IllegalArgumentException.class,
                () -> new DynamoDbLinkStore(aws.dynamoDb(), table, shards), "shards " + shards));
    }

    private List<String> targets(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> base + "/target-" + i).toList();
    }

    /** The target URLs of the items from {@code source}, read straight from the table. */
    private Set<String> linkedFrom(String source) {
        return aws.dynamoDb().scanPaginator(r -> r.tableName(table).filterExpression("#source = :s")
                        .expressionAttributeNames(Map.of("#source", "source"))
                        .expressionAttributeValues(Map.of(":s", AttributeValue.fromS(hash(source)))))
                .items().stream().map(item -> item.get("targetUrl").s()).collect(Collectors.toSet());
    }

}
