package io.spiderling.local.cost;

import java.net.URI;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageRequest;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * One SDK call, priced: which service bills it and how (SQS per 64 KB chunk and per queue type, S3 per price class,
 * DynamoDB in request units by {@link DynamoDbBilling}), counted into its {@link Metering} when it ends.
 */
final class SdkCallBilling {

    private final Metering metering;
    private final String sdkService;
    private final String operation;
    private final Set<DynamoDbBilling.Added> added = EnumSet.noneOf(DynamoDbBilling.Added.class);
    /** A transaction's endpoint, its actions' items, and those items before it; null for other calls. */
    private URI endpoint;
    private List<Optional<TransactionItems.Target>> targets;
    private Map<TransactionItems.Target, Map<String, AttributeValue>> before;

    /** @param sdkService the SDK's service name: {@code DynamoDb}, {@code Sqs}, {@code S3}, … */
    SdkCallBilling(Metering metering, String sdkService, String operation) {
        this.metering = metering;
        this.sdkService = sdkService;
        this.operation = operation;
    }

    /** The request to send: for DynamoDB, with consumed capacity asked for when billing is on. */
    SdkRequest prepare(SdkRequest request) {
        return sdkService.equals("DynamoDb") && metering.bills() ? DynamoDbBilling.prepare(request, added) : request;
    }

    /** Just before the request goes: a transaction's items are read as they are (see {@link TransactionItems}). */
    void beforeTransmission(SdkRequest request, SdkHttpRequest http) {
        if (sdkService.equals("DynamoDb") && metering.bills() && request instanceof TransactWriteItemsRequest tx) {
            endpoint = URI.create(http.protocol() + "://" + http.host() + ":" + http.port());
            targets = tx.transactItems().stream().map(TransactionItems::target).toList();
            before = metering.transactionItems().read(endpoint, targets.stream().flatMap(Optional::stream).toList());
        }
    }

    SdkResponse restore(SdkResponse response) {
        return DynamoDbBilling.restore(response, added);
    }

    Throwable restore(Throwable failure) {
        return DynamoDbBilling.restore(failure, added);
    }

    void succeeded(Account account, SdkRequest request, SdkResponse response, Optional<RequestBody> body) {
        switch (sdkService) {
            case "DynamoDb" -> {
                DynamoDbBilling.Units units;
                if (targets != null && request instanceof TransactWriteItemsRequest tx) {
                    List<TransactionItems.Target> updated = new ArrayList<>();
                    for (int i = 0; i < targets.size(); i++) {
                        if (tx.transactItems().get(i).update() != null) {
                            targets.get(i).ifPresent(updated::add);
                        }
                    }
                    units = DynamoDbBilling.transaction(tx, targets, before,
                            metering.transactionItems().read(endpoint, updated));
                } else {
                    units = metering.bills() ? DynamoDbBilling.succeeded(request, response)
                            : DynamoDbBilling.Units.NONE;
                }
                metering.recordDynamoDbCall(account, operation, units, false);
            }
            case "Sqs" -> {
                boolean empty = response instanceof ReceiveMessageResponse r && r.messages().isEmpty();
                long payload = switch (request) {
                    case SendMessageRequest r -> utf8(r.messageBody()) + attributes(r.messageAttributes());
                    case SendMessageBatchRequest r -> r.entries().stream()
                            .mapToLong(e -> utf8(e.messageBody()) + attributes(e.messageAttributes())).sum();
                    default -> response instanceof ReceiveMessageResponse r ? r.messages().stream()
                            .mapToLong(m -> utf8(m.body()) + attributes(m.messageAttributes())).sum() : 0;
                };
                if (empty && request instanceof ReceiveMessageRequest r
                        && Integer.valueOf(0).equals(r.waitTimeSeconds())) {
                    // A local poller's short poll that found nothing stands for part of a long poll that AWS's
                    // mapping would have held open: the local stand-in's, not the pipeline's.
                    metering.recordCall(Account.LOCAL, sqsService(request), operation + " (empty short poll)",
                            Billing.sqsRequests(payload), 0, 0, false);
                    return;
                }
                metering.recordCall(account, sqsService(request), operation + (empty ? " (empty)" : ""),
                        Billing.sqsRequests(payload), 0, 0, false);
            }
            case "S3" -> {
                metering.recordCall(account, "S3", operation, 1, 0, 0, false);
                if (request instanceof PutObjectRequest put) {
                    body.flatMap(RequestBody::optionalContentLength)
                            .ifPresent(bytes -> metering.stored(prefix(put.key()), bytes));
                }
            }
            default -> metering.recordCall(account, sdkService, operation, 1, 0, 0, false);
        }
    }

    void failed(Account account, SdkRequest request, Throwable failure) {
        switch (sdkService) {
            case "DynamoDb" -> {
                Optional<DynamoDbBilling.Units> refused = targets != null
                        && request instanceof TransactWriteItemsRequest tx
                        ? DynamoDbBilling.cancelled(tx, targets, before, failure)
                        : DynamoDbBilling.refused(request, failure);
                DynamoDbBilling.Units units = refused.orElse(DynamoDbBilling.Units.NONE);
                metering.recordDynamoDbCall(account, operation, units, refused.isPresent());
            }
            // A request that failed is billed all the same (S3's 412 for a conditional PUT among them).
            case "Sqs" -> metering.recordCall(account, sqsService(request), operation, 1, 0, 0, false);
            case "S3" -> metering.recordCall(account, "S3", operation, 1, 0, 0,
                    failure instanceof S3Exception e && e.statusCode() == 412);
            default -> metering.recordCall(account, sdkService, operation, 1, 0, 0, false);
        }
    }

    private static String sqsService(SdkRequest request) {
        String queueUrl = request.getValueForField("QueueUrl", String.class).orElse("");
        return queueUrl.endsWith(".fifo") ? "SQS FIFO" : "SQS standard";
    }

    private static String prefix(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? "" : key.substring(0, slash + 1);
    }

    private static long attributes(Map<String, MessageAttributeValue> attributes) {
        long size = 0;
        for (Map.Entry<String, MessageAttributeValue> a : attributes.entrySet()) {
            MessageAttributeValue v = a.getValue();
            size += utf8(a.getKey()) + utf8(v.dataType()) + utf8(v.stringValue())
                    + (v.binaryValue() == null ? 0 : v.binaryValue().asByteArrayUnsafe().length);
        }
        return size;
    }

    private static long utf8(String text) {
        return text == null ? 0 : CapacityUnits.utf8(text);
    }
}
