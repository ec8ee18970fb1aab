package io.spiderling.local;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.catalog.Secret;
import io.spiderling.testkit.StackResources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.secretsmanager.model.GetSecretValueRequest;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequest;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * Records which IAM actions each function's calls need, on which resources, for the least-privilege check of the
 * CDK stack ({@code LeastPrivilegeTest} in infra-cdk). A {@link Meter}: calls are told apart by thread as the cost
 * meter tells them ({@link Attribution}), so a call of a function's invocation, or of a thread it started, is the
 * function's; a poller's receives and deletes are its event source's (Lambda's mapping on AWS); the runner's stand-ins
 * for AWS are nobody's. Each SDK call is taken apart into what IAM authorizes it by: a transaction by its items'
 * actions, a HeadObject by s3:GetObject, a copy by a read of its source and a write of its target, a batch of sends
 * by sqs:SendMessage, a presigned URL by what its holder will do with the presigning function's rights.
 *
 * <p>Resources are written as the catalog names them, whatever the run's prefix: {@code table:SITES},
 * {@code table:SITES/index/byOrder}, {@code object:content/…}, {@code bucket:uploads/} (a listing, by its prefix),
 * {@code queue:FETCH}, {@code secret:SIGNING_KEYS}; a name the stack does not know as {@code unknown:…}, so that it
 * shows. {@link #close()} writes one file of distinct records, named after the stack's prefix,
 * {@code caller\taction\tresource\tcalls} a line.
 *
 * <p>The e2e module turns it on for its suites with the system property {@value #DIRECTORY_PROPERTY}, the folder to
 * write to; without it the runner records nothing.
 */
final class CallRecorder implements Meter, AutoCloseable {

    /** The folder to write recordings to; recording is off without it. */
    static final String DIRECTORY_PROPERTY = "spiderling.record-calls";

    /** Who a call is for: {@code function:<name>}, {@code event-source:<name>}, {@code local}, {@code unattributed}. */
    private final Attribution<String> callers = new Attribution<>("unattributed");
    private final Map<String, LongAdder> records = new ConcurrentHashMap<>();
    private final Map<String, String> names = new TreeMap<>();
    private final String bucket;
    private final String prefix;
    private final Path directory;

    CallRecorder(StackResources resources, Path directory) {
        this.bucket = resources.bucket();
        this.prefix = resources.prefix();
        this.directory = directory;
        resources.tables().forEach((table, name) -> names.put(name, "table:" + table.name()));
        resources.queueUrls().forEach((queue, url) -> {
            names.put(url, "queue:" + queue.name());
            names.put(queueName(url), "queue:" + queue.name());
        });
        resources.secrets().forEach((secret, arn) -> names.put(arn, "secret:" + secret.name()));
        for (Secret secret : Secret.values()) {
            names.putIfAbsent(secret.nameIn(resources.prefix()), "secret:" + secret.name());
        }
    }

    /** A recorder for {@code resources} if the system property asks for one. */
    static Optional<CallRecorder> fromSystemProperties(StackResources resources) {
        return Optional.ofNullable(System.getProperty(DIRECTORY_PROPERTY))
                .filter(d -> !d.isBlank())
                .map(d -> new CallRecorder(resources, Path.of(d)));
    }

    @Override
    public List<ExecutionInterceptor> interceptors() {
        return List.of(new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                String service = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME);
                String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
                record(callers.current(), needs(service, operation, context.request()));
            }
        });
    }

    @Override
    public <T> T init(FunctionSpec function, Supplier<T> build) {
        return callers.invoke("function:" + function.name(), build);
    }

    @Override
    public <I, O> RequestHandler<I, O> handler(FunctionSpec function, RequestHandler<I, O> handler) {
        String caller = "function:" + function.name();
        return (input, context) -> callers.invoke(caller, () -> handler.handleRequest(input, context));
    }

    @Override
    public <O> RequestHandler<APIGatewayV2HTTPEvent, O> httpHandler(FunctionSpec function,
            RequestHandler<APIGatewayV2HTTPEvent, O> handler) {
        return handler(function, handler);
    }

    @Override
    public Runnable eventSource(FunctionSpec function, Runnable poller) {
        return callers.as("event-source:" + function.name(), poller);
    }

    @Override
    public Runnable standIn(Runnable task) {
        return callers.as("local", task);
    }

    @Override
    public <T> T standIn(Supplier<T> call) {
        return callers.outside("local", call);
    }

    /** A URL presigned for {@code action} on {@code key}: its holder acts with the presigning function's rights. */
    @Override
    public void presigned(String action, String key) {
        record(callers.current(), List.of(action + "\t" + object(bucket, key)));
    }

    private void record(String caller, List<String> needs) {
        for (String need : needs) {
            records.computeIfAbsent(caller + "\t" + need, k -> new LongAdder()).increment();
        }
    }

    /** What IAM authorizes {@code request} by: {@code action\tresource} each. */
    private List<String> needs(String service, String operation, SdkRequest request) {
        List<String> needs = new ArrayList<>();
        switch (request) {
            case GetItemRequest r -> needs.add(dynamo("GetItem", r.tableName(), null));
            case PutItemRequest r -> needs.add(dynamo("PutItem", r.tableName(), null));
            case UpdateItemRequest r -> needs.add(dynamo("UpdateItem", r.tableName(), null));
            case DeleteItemRequest r -> needs.add(dynamo("DeleteItem", r.tableName(), null));
            case QueryRequest r -> needs.add(dynamo("Query", r.tableName(), r.indexName()));
            case ScanRequest r -> needs.add(dynamo("Scan", r.tableName(), r.indexName()));
            case BatchGetItemRequest r -> r.requestItems().keySet()
                    .forEach(t -> needs.add(dynamo("BatchGetItem", t, null)));
            case BatchWriteItemRequest r -> r.requestItems().keySet()
                    .forEach(t -> needs.add(dynamo("BatchWriteItem", t, null)));
            case TransactWriteItemsRequest r -> r.transactItems().forEach(i -> needs.add(transactionItem(i)));
            case TransactGetItemsRequest r -> r.transactItems().stream().map(TransactGetItem::get)
                    .forEach(g -> needs.add(dynamo("GetItem", g.tableName(), null)));
            case GetObjectRequest r -> needs.add("s3:GetObject\t" + object(r.bucket(), r.key()));
            case HeadObjectRequest r -> needs.add("s3:GetObject\t" + object(r.bucket(), r.key()));
            case PutObjectRequest r -> needs.add("s3:PutObject\t" + object(r.bucket(), r.key()));
            case DeleteObjectRequest r -> needs.add("s3:DeleteObject\t" + object(r.bucket(), r.key()));
            case CopyObjectRequest r -> {
                needs.add("s3:GetObject\t" + copySource(r));
                needs.add("s3:PutObject\t" + object(r.destinationBucket(), r.destinationKey()));
            }
            case ListObjectsV2Request r -> needs.add("s3:ListBucket\t" + (bucket.equals(r.bucket())
                    ? "bucket:" + (r.prefix() == null ? "" : r.prefix()) : "unknown:" + r.bucket()));
            case SendMessageRequest r -> needs.add("sqs:SendMessage\t" + name(r.queueUrl()));
            case SendMessageBatchRequest r -> needs.add("sqs:SendMessage\t" + name(r.queueUrl()));
            case GetSecretValueRequest r -> needs.add("secretsmanager:GetSecretValue\t" + name(r.secretId()));
            // IAM has no batch actions for these: a batch is authorized as its entries' action.
            case DeleteMessageBatchRequest r -> needs.add("sqs:DeleteMessage\t" + name(r.queueUrl()));
            case ChangeMessageVisibilityBatchRequest r ->
                    needs.add("sqs:ChangeMessageVisibility\t" + name(r.queueUrl()));
            default -> needs.add(iamPrefix(service) + ":" + operation + "\t" + queueOrUnknown(request));
        }
        return needs;
    }

    /** The queue of an SQS call the list above does not take apart (a receive, a delete), if it has one. */
    private String queueOrUnknown(SdkRequest request) {
        return request.getValueForField("QueueUrl", String.class).map(this::name).orElse("unknown:");
    }

    /** A copy's source: its bucket and key, or the {@code bucket/key} the SDK may have folded them into. */
    @SuppressWarnings("deprecation") // copySource: where the SDK leaves a source given as bucket and key
    private String copySource(CopyObjectRequest r) {
        if (r.sourceBucket() != null) {
            return object(r.sourceBucket(), r.sourceKey());
        }
        String source = java.net.URLDecoder.decode(String.valueOf(r.copySource()),
                java.nio.charset.StandardCharsets.UTF_8);
        source = source.startsWith("/") ? source.substring(1) : source;
        int slash = source.indexOf('/');
        return slash < 0 ? "unknown:" + source : object(source.substring(0, slash), source.substring(slash + 1));
    }

    private String transactionItem(TransactWriteItem item) {
        if (item.put() != null) {
            return dynamo("PutItem", item.put().tableName(), null);
        }
        if (item.update() != null) {
            return dynamo("UpdateItem", item.update().tableName(), null);
        }
        if (item.delete() != null) {
            return dynamo("DeleteItem", item.delete().tableName(), null);
        }
        return dynamo("ConditionCheckItem", item.conditionCheck().tableName(), null);
    }

    private String dynamo(String action, String table, String index) {
        return "dynamodb:" + action + "\t" + name(table) + (index == null ? "" : "/index/" + index);
    }

    /**
     * An object by its key's first segment ({@code object:content/…}): a policy grants by prefix, and every body's
     * own key would make a recording of thousands of lines.
     */
    private String object(String inBucket, String key) {
        int slash = key.indexOf('/');
        String shown = slash < 0 ? key : key.substring(0, slash + 1) + "…";
        return bucket.equals(inBucket) ? "object:" + shown : "unknown:" + inBucket + "/" + shown;
    }

    private String name(String local) {
        return names.getOrDefault(local, "unknown:" + local);
    }

    private static String queueName(String url) {
        return url.substring(url.lastIndexOf('/') + 1);
    }

    private static String iamPrefix(String service) {
        return switch (service) {
            case "DynamoDb" -> "dynamodb";
            case "S3" -> "s3";
            case "Sqs" -> "sqs";
            case "SecretsManager" -> "secretsmanager";
            default -> service.toLowerCase(java.util.Locale.ROOT);
        };
    }

    /** Writes what was recorded, one distinct record a line, to a file of its own in the folder. */
    @Override
    public void close() {
        List<String> lines = new ArrayList<>();
        new TreeMap<>(records).forEach((record, calls) -> lines.add(record + "\t" + calls.sum()));
        try {
            Files.createDirectories(directory);
            Files.write(directory.resolve(prefix + "-" + UUID.randomUUID() + ".tsv"), lines);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the recorded calls to " + directory, e);
        }
    }
}
