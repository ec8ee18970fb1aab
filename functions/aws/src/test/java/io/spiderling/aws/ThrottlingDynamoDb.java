package io.spiderling.aws;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * DynamoDB Local never throttles, so it never answers a BatchWriteItem with UnprocessedItems. This client does, for
 * its first {@code throttledCalls} calls: it writes the first half of the requests (rounded down) and hands the rest
 * back as unprocessed, as a throttled table does. It records the batch sizes and queries it passes on.
 */
final class ThrottlingDynamoDb implements DynamoDbClient {

    private final DynamoDbClient delegate;
    private final AtomicInteger throttledLeft;
    final List<Integer> batchSizes = new CopyOnWriteArrayList<>();
    final List<QueryRequest> queries = new CopyOnWriteArrayList<>();

    ThrottlingDynamoDb(DynamoDbClient delegate, int throttledCalls) {
        this.delegate = delegate;
        this.throttledLeft = new AtomicInteger(throttledCalls);
    }

    @Override
    public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest request) {
        if (request.requestItems().size() != 1) {
            throw new UnsupportedOperationException("one table per call");
        }
        var table = request.requestItems().entrySet().iterator().next();
        List<WriteRequest> writes = table.getValue();
        batchSizes.add(writes.size());
        if (throttledLeft.getAndDecrement() <= 0) {
            return delegate.batchWriteItem(request);
        }
        List<WriteRequest> written = writes.subList(0, writes.size() / 2);
        if (!written.isEmpty()) {
            delegate.batchWriteItem(b -> b.requestItems(Map.of(table.getKey(), written)));
        }
        List<WriteRequest> rest = new ArrayList<>(writes.subList(written.size(), writes.size()));
        return BatchWriteItemResponse.builder().unprocessedItems(Map.of(table.getKey(), rest)).build();
    }

    /** Also serves {@code queryPaginator}, whose default implementation calls this method. */
    @Override
    public QueryResponse query(QueryRequest request) {
        queries.add(request);
        return delegate.query(request);
    }

    @Override
    public String serviceName() {
        return delegate.serviceName();
    }

    @Override
    public void close() {}
}
