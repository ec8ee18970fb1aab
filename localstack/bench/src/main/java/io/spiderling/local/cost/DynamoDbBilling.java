package io.spiderling.local.cost;

import io.spiderling.catalog.Table;
import io.spiderling.local.cost.CapacityUnits.Consistency;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * The request units AWS would bill for one DynamoDB call made against DynamoDB Local.
 *
 * <p>For single-item calls, batches and queries DynamoDB Local's own {@code ConsumedCapacity} (asked for with
 * {@code ReturnConsumedCapacity = INDEXES}) is the figure: {@code DynamoDbLocalBillingTest} holds it to
 * {@link CapacityUnits} for item-size boundaries, the larger-of-before-and-after rule, deletes, local index writes
 * (entering, leaving, re-keying, projected attributes), consistent and eventual reads, BatchGetItem, BatchWriteItem and
 * filtered Query. It is the only way to learn an updated item's size before and after without extra reads. Where
 * DynamoDB Local is wrong, the rules decide:
 * <ul>
 *   <li>TransactWriteItems: DynamoDB Local sums a table's items, rounds the sum up to the KB and bills it four times
 *       (a 100-byte put: 4 units where AWS bills 2; a hundred of them: 40 where AWS bills 200). The meter reads the
 *       items before and after instead ({@link TransactionItems}) and bills each action 2 units per started KB of
 *       the larger of its item before and after (a deleted item's size; a ConditionCheck's item's size), and twice
 *       each local index write the rules give. An action on a table outside the catalog counts as 1 KB.</li>
 *   <li>Query and Scan that read nothing: DynamoDB Local reports 0; AWS bills the minimum read.</li>
 *   <li>A refused conditional write (ConditionalCheckFailedException): DynamoDB Local reports nothing; AWS bills the
 *       size of the existing item or of the item being written, whichever is larger (1 unit without either). The
 *       existing item comes from {@code ReturnValuesOnConditionCheckFailure = ALL_OLD}, which the meter asks for when
 *       the caller did not, and takes off the exception again. No index write is counted: nothing changed.</li>
 *   <li>A transaction a condition cancelled: AWS does not document it; assumed billed like refused conditional writes,
 *       transactionally, for every action, from the items read before it.</li>
 *   <li>TransactGetItems (unused by the pipeline): from the items returned, 2 units per started 4 KB.</li>
 * </ul>
 */
final class DynamoDbBilling {

    /** Request units of one call, and how they split over the partition keys it touched ({@link KeyAttribution}). */
    record Units(double read, double write, List<KeyAttribution.Charge> charges) {
        static final Units NONE = new Units(0, 0, List.of());

        /** A call on one key (or on none it can name): everything to the request's key. */
        static Units single(SdkRequest request, double read, double write) {
            return new Units(read, write, KeyAttribution.single(request, read, write));
        }
    }

    /** What the meter added to a request, so it can take it off the response again. */
    enum Added { CONSUMED_CAPACITY, OLD_ITEM_ON_FAILURE }

    private DynamoDbBilling() {}

    /** The request asking for consumed capacity, and for the old item on a refused condition; {@code added}: which. */
    static SdkRequest prepare(SdkRequest request, Set<Added> added) {
        return switch (request) {
            case GetItemRequest r -> asks(r.returnConsumedCapacity(), added) ? r.toBuilder()
                    .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build() : r;
            case QueryRequest r -> asks(r.returnConsumedCapacity(), added) ? r.toBuilder()
                    .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build() : r;
            case ScanRequest r -> asks(r.returnConsumedCapacity(), added) ? r.toBuilder()
                    .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build() : r;
            case BatchGetItemRequest r -> asks(r.returnConsumedCapacity(), added) ? r.toBuilder()
                    .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build() : r;
            case BatchWriteItemRequest r -> asks(r.returnConsumedCapacity(), added) ? r.toBuilder()
                    .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build() : r;
            case PutItemRequest r -> {
                var b = r.toBuilder();
                askForItemWrites(r.returnConsumedCapacity(), r.conditionExpression(),
                        r.returnValuesOnConditionCheckFailure(), added, b::returnConsumedCapacity,
                        b::returnValuesOnConditionCheckFailure);
                yield b.build();
            }
            case UpdateItemRequest r -> {
                var b = r.toBuilder();
                askForItemWrites(r.returnConsumedCapacity(), r.conditionExpression(),
                        r.returnValuesOnConditionCheckFailure(), added, b::returnConsumedCapacity,
                        b::returnValuesOnConditionCheckFailure);
                yield b.build();
            }
            case DeleteItemRequest r -> {
                var b = r.toBuilder();
                askForItemWrites(r.returnConsumedCapacity(), r.conditionExpression(),
                        r.returnValuesOnConditionCheckFailure(), added, b::returnConsumedCapacity,
                        b::returnValuesOnConditionCheckFailure);
                yield b.build();
            }
            // Transactions get consumed capacity only: asking for old items would change which items the caller's
            // cancellation reasons carry, and the failed action's item is what the billing needs less than the
            // caller does. Spiderling's batch store asks for it itself where it matters.
            case TransactWriteItemsRequest r -> asks(r.returnConsumedCapacity(), added) ? r.toBuilder()
                    .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build() : r;
            default -> request;
        };
    }

    /** The response as the caller would have had it, without what {@link #prepare} asked for. */
    static SdkResponse restore(SdkResponse response, Set<Added> added) {
        if (!added.contains(Added.CONSUMED_CAPACITY)) {
            return response;
        }
        return switch (response) {
            case GetItemResponse r -> r.toBuilder().consumedCapacity((ConsumedCapacity) null).build();
            case PutItemResponse r -> r.toBuilder().consumedCapacity((ConsumedCapacity) null).build();
            case UpdateItemResponse r -> r.toBuilder().consumedCapacity((ConsumedCapacity) null).build();
            case DeleteItemResponse r -> r.toBuilder().consumedCapacity((ConsumedCapacity) null).build();
            case QueryResponse r -> r.toBuilder().consumedCapacity((ConsumedCapacity) null).build();
            case ScanResponse r -> r.toBuilder().consumedCapacity((ConsumedCapacity) null).build();
            case BatchGetItemResponse r -> r.toBuilder().consumedCapacity((Collection<ConsumedCapacity>) null).build();
            case BatchWriteItemResponse r -> r.toBuilder().consumedCapacity((Collection<ConsumedCapacity>) null)
                    .build();
            case TransactWriteItemsResponse r -> r.toBuilder().consumedCapacity((Collection<ConsumedCapacity>) null)
                    .build();
            default -> response;
        };
    }

    /** The exception as the caller would have had it. */
    static Throwable restore(Throwable failure, Set<Added> added) {
        if (added.contains(Added.OLD_ITEM_ON_FAILURE) && failure instanceof ConditionalCheckFailedException e) {
            return e.toBuilder().item(null).build();
        }
        return failure;
    }

    /** Billed units of a call that succeeded, from DynamoDB Local's figure corrected where it is wrong. */
    static Units succeeded(SdkRequest request, SdkResponse response) {
        return switch (response) {
            case GetItemResponse r -> Units.single(request, reported(r.consumedCapacity()), 0);
            case BatchGetItemResponse r -> batchGet((BatchGetItemRequest) request, r);
            case QueryResponse r -> Units.single(request, atLeastOneRead(reported(r.consumedCapacity()),
                    Consistency.of(((QueryRequest) request).consistentRead())), 0);
            case ScanResponse r -> Units.single(request, atLeastOneRead(reported(r.consumedCapacity()),
                    Consistency.of(((ScanRequest) request).consistentRead())), 0);
            case TransactGetItemsResponse r -> transactGet((TransactGetItemsRequest) request, r);
            case PutItemResponse r -> Units.single(request, 0, reported(r.consumedCapacity()));
            case UpdateItemResponse r -> Units.single(request, 0, reported(r.consumedCapacity()));
            case DeleteItemResponse r -> Units.single(request, 0, reported(r.consumedCapacity()));
            case BatchWriteItemResponse r -> new Units(0, reported(r.consumedCapacity()),
                    KeyAttribution.batchWrite((BatchWriteItemRequest) request, r));
            // TransactWriteItems: DynamoDB Local's figure is wrong; see transaction().
            default -> Units.NONE;
        };
    }

    /** BatchGetItem: each table's units over its keys, at least what AWS's rules give ({@link KeyAttribution}). */
    private static Units batchGet(BatchGetItemRequest request, BatchGetItemResponse response) {
        List<KeyAttribution.Charge> charges = KeyAttribution.batchGet(request, response);
        double read = charges.isEmpty() ? reported(response.consumedCapacity())
                : charges.stream().mapToDouble(KeyAttribution.Charge::read).sum();
        return new Units(read, 0, charges);
    }

    /** TransactGetItems: each item 2 units per started 4 KB, to its own key. */
    private static Units transactGet(TransactGetItemsRequest request, TransactGetItemsResponse response) {
        List<KeyAttribution.Charge> charges = new ArrayList<>();
        double read = 0;
        for (int i = 0; i < response.responses().size(); i++) {
            var item = response.responses().get(i);
            double units = CapacityUnits.getUnits(item.hasItem() ? CapacityUnits.itemSize(item.item()) : 0,
                    Consistency.TRANSACTIONAL);
            read += units;
            var get = request.transactItems().get(i).get();
            charges.add(new KeyAttribution.Charge(KeyAttribution.key(get.tableName(), get.key()), units, 0));
        }
        return new Units(read, 0, charges);
    }

    /** Billed units of a refused conditional write or a transaction a condition cancelled; empty for other failures. */
    static Optional<Units> refused(SdkRequest request, Throwable failure) {
        if (failure instanceof ConditionalCheckFailedException e) {
            Optional<Long> existing = e.hasItem() ? Optional.of(CapacityUnits.itemSize(e.item())) : Optional.empty();
            Optional<Long> attempted = request instanceof PutItemRequest put
                    ? Optional.of(CapacityUnits.itemSize(put.item())) : Optional.empty();
            return Optional.of(Units.single(request, 0, CapacityUnits.refusedWriteUnits(existing, attempted)));
        }
        return Optional.empty();
    }

    /**
     * A transaction that was applied: each action 2 units per started KB of the larger of its item before and after
     * (a ConditionCheck its item as it is), plus twice its local index writes.
     *
     * @param targets each action's item, empty when its table is not the catalog's (then 2 units)
     * @param before the items before the transaction; after: those after it (the updated ones at least)
     */
    static Units transaction(TransactWriteItemsRequest request, List<Optional<TransactionItems.Target>> targets,
            Map<TransactionItems.Target, Map<String, AttributeValue>> before,
            Map<TransactionItems.Target, Map<String, AttributeValue>> after) {
        List<Long> units = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            TransactWriteItem action = request.transactItems().get(i);
            if (targets.get(i).isEmpty()) {
                units.add(CapacityUnits.transactional(1));
                continue;
            }
            TransactionItems.Target target = targets.get(i).get();
            Map<String, AttributeValue> old = before.get(target);
            Map<String, AttributeValue> now = action.put() != null ? action.put().item()
                    : action.update() != null ? after.get(target) : null;
            long standard;
            if (action.conditionCheck() != null) {
                standard = CapacityUnits.writeUnits(size(old).orElse(0L));
            } else {
                standard = CapacityUnits.appliedWriteUnits(size(old), size(now));
                for (Table.LocalIndex index : target.table().localIndexes()) {
                    AttributeValue keyBefore = old == null ? null : old.get(index.sortKey());
                    AttributeValue keyAfter = now == null ? null : now.get(index.sortKey());
                    standard += CapacityUnits.indexWriteUnits(keyBefore == null ? Optional.empty() : size(old),
                            keyAfter == null ? Optional.empty() : size(now),
                            keyBefore != null && keyAfter != null && !keyBefore.equals(keyAfter));
                }
            }
            units.add(CapacityUnits.transactional(standard));
        }
        return perAction(request, units);
    }

    /**
     * A transaction a condition cancelled: every action billed as a refused conditional write, transactionally, from
     * its item before (and a put's own item). Empty when it was cancelled for another reason.
     */
    static Optional<Units> cancelled(TransactWriteItemsRequest request, List<Optional<TransactionItems.Target>> targets,
            Map<TransactionItems.Target, Map<String, AttributeValue>> before, Throwable failure) {
        if (!(failure instanceof TransactionCanceledException e) || !e.hasCancellationReasons()
                || e.cancellationReasons().stream().noneMatch(r -> "ConditionalCheckFailed".equals(r.code()))) {
            return Optional.empty();
        }
        List<Long> units = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            TransactWriteItem action = request.transactItems().get(i);
            Optional<Long> existing = targets.get(i).map(before::get).flatMap(DynamoDbBilling::size);
            Optional<Long> attempted = Optional.ofNullable(action.put()).map(p -> CapacityUnits.itemSize(p.item()));
            units.add(CapacityUnits.transactional(CapacityUnits.refusedWriteUnits(existing, attempted)));
        }
        return Optional.of(perAction(request, units));
    }

    /** A transaction's write units, each action's to its own item's key. */
    private static Units perAction(TransactWriteItemsRequest request, List<Long> units) {
        List<KeyAttribution.Charge> charges = new ArrayList<>();
        List<Usage.Key> keys = request.transactItems().stream().map(KeyAttribution::action).toList();
        for (int i = 0; i < units.size(); i++) {
            charges.add(new KeyAttribution.Charge(keys.get(i), 0, units.get(i)));
        }
        return new Units(0, units.stream().mapToLong(Long::longValue).sum(), charges);
    }

    private static Optional<Long> size(Map<String, AttributeValue> item) {
        return item == null ? Optional.empty() : Optional.of(CapacityUnits.itemSize(item));
    }

    private static double atLeastOneRead(double reported, Consistency consistency) {
        return Math.max(reported, CapacityUnits.getUnits(0, consistency));
    }

    private static double reported(ConsumedCapacity capacity) {
        return capacity == null || capacity.capacityUnits() == null ? 0 : capacity.capacityUnits();
    }

    private static double reported(List<ConsumedCapacity> capacities) {
        return capacities.stream().mapToDouble(DynamoDbBilling::reported).sum();
    }

    private static boolean asks(ReturnConsumedCapacity given, Set<Added> added) {
        if (given == null || given == ReturnConsumedCapacity.NONE) {
            added.add(Added.CONSUMED_CAPACITY);
            return true;
        }
        return false;
    }

    /**
     * What a single-item write is asked for on top of the caller's request: consumed capacity, and for a conditional
     * write the old item on a refusal (to size it), each only when the caller did not ask already.
     */
    private static void askForItemWrites(ReturnConsumedCapacity capacity, String condition,
            ReturnValuesOnConditionCheckFailure onFailure, Set<Added> added,
            Consumer<ReturnConsumedCapacity> setCapacity, Consumer<ReturnValuesOnConditionCheckFailure> setOnFailure) {
        if (asks(capacity, added)) {
            setCapacity.accept(ReturnConsumedCapacity.INDEXES);
        }
        if (condition != null && none(onFailure)) {
            setOnFailure.accept(ReturnValuesOnConditionCheckFailure.ALL_OLD);
            added.add(Added.OLD_ITEM_ON_FAILURE);
        }
    }

    private static boolean none(ReturnValuesOnConditionCheckFailure given) {
        return given == null || given == ReturnValuesOnConditionCheckFailure.NONE;
    }
}
