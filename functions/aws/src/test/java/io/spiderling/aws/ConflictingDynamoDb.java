package io.spiderling.aws;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * DynamoDB Local runs transactions one at a time and has no throughput limits, so it never reports the
 * TransactionConflict that real DynamoDB gives two transactions touching one item at once, nor the throttles of a key
 * or table over its limit. This client cancels the first {@code conflicts} transactions the way DynamoDB does, with
 * the given reason on the second action ({@code TransactionConflict} unless told otherwise), and passes everything
 * else to the emulator.
 */
final class ConflictingDynamoDb implements DynamoDbClient {

    private final DynamoDbClient delegate;
    private final AtomicInteger conflictsLeft;
    private final String reason;
    final AtomicInteger transactions = new AtomicInteger();
    final AtomicInteger batchGets = new AtomicInteger();

    ConflictingDynamoDb(DynamoDbClient delegate, int conflicts) {
        this(delegate, conflicts, "TransactionConflict");
    }

    /**
     * @param reason the cancellation reason's code: {@code TransactionConflict}, {@code ProvisionedThroughputExceeded}
     *     (a key over its partition's throughput) or {@code ThrottlingError} (the table over its quota)
     */
    ConflictingDynamoDb(DynamoDbClient delegate, int conflicts, String reason) {
        this.delegate = delegate;
        this.conflictsLeft = new AtomicInteger(conflicts);
        this.reason = reason;
    }

    @Override
    public TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request) {
        transactions.incrementAndGet();
        if (conflictsLeft.getAndDecrement() > 0) {
            throw TransactionCanceledException.builder()
                    .message("Transaction cancelled, please refer cancellation reasons for specific reasons "
                            + "[None, " + reason + "]")
                    .cancellationReasons(List.of(CancellationReason.builder().code("None").build(),
                            CancellationReason.builder().code(reason).message("cancelled as " + reason).build()))
                    .build();
        }
        return delegate.transactWriteItems(request);
    }

    @Override
    public PutItemResponse putItem(PutItemRequest request) {
        return delegate.putItem(request);
    }

    @Override
    public GetItemResponse getItem(GetItemRequest request) {
        return delegate.getItem(request);
    }

    @Override
    public BatchGetItemResponse batchGetItem(BatchGetItemRequest request) {
        batchGets.incrementAndGet();
        return delegate.batchGetItem(request);
    }

    @Override
    public UpdateItemResponse updateItem(UpdateItemRequest request) {
        return delegate.updateItem(request);
    }

    /** Also serves {@code queryPaginator}, whose default implementation calls this method. */
    @Override
    public QueryResponse query(QueryRequest request) {
        return delegate.query(request);
    }

    @Override
    public String serviceName() {
        return delegate.serviceName();
    }

    @Override
    public void close() {}
}
