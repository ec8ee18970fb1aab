package io.spiderling.testkit;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Fails chosen AWS SDK calls, for fault tests of a whole pipeline: an {@link ExecutionInterceptor} set on every client
 * (the pipeline's one seam for it), driven by {@link Rule}s, and counting what it injected, so that a test can insist
 * its faults actually fired ({@link #requireFired}).
 *
 * <p>A rule names the calls it matches ({@link Call}), which of the matches it fails ({@link When}) and how
 * ({@link Fault}):
 * <ul>
 *   <li>{@link Fault.Refused}: thrown before the request is sent, outside the SDK's retries; nothing landed.</li>
 *   <li>{@link Fault.ReplyLost}: the request was sent and applied, then its caller gets the exception instead of the
 *       answer, outside the SDK's retries. With {@link #crash()} it stands for the process dying right after that
 *       write.</li>
 *   <li>{@link Fault.ErrorReply}: the request was sent and applied, and its HTTP answer is replaced by an error
 *       answer; the SDK's own retry policy sees it, as it would a real one, and may send the call again (each
 *       attempt is a match).</li>
 * </ul>
 * Thread-safe; matches are counted in the order the calls reach it.
 */
public final class FaultInjector implements ExecutionInterceptor {

    private static final ExecutionAttribute<Rule> LOSE_REPLY = new ExecutionAttribute<>("fault-injector.reply-lost");
    /** The error answer the current attempt gets, if any: set before each attempt is sent. */
    private static final ExecutionAttribute<AtomicReference<Fault.ErrorReply>> REPLACE = new ExecutionAttribute<>(
            "fault-injector.error-reply");

    private final List<Armed> rules = new ArrayList<>();
    private final List<Injection> injections = new ArrayList<>();
    private volatile boolean armed = true;

    private FaultInjector() {}

    public static FaultInjector create() {
        return new FaultInjector();
    }

    /** Adds a rule; a call that several rules match takes the first that fires. */
    public synchronized FaultInjector add(Rule rule) {
        if (rules.stream().anyMatch(r -> r.rule.name().equals(rule.name()))) {
            throw new IllegalArgumentException("two rules named " + rule.name());
        }
        rules.add(new Armed(rule));
        return this;
    }

    /** Stops injecting (and counting matches): for the reads a test makes once its run is over. */
    public void disarm() {
        armed = false;
    }

    public void arm() {
        armed = true;
    }

    /** How many faults the rule injected. */
    public synchronized int injected(String rule) {
        return find(rule).injected;
    }

    /** How many calls the rule matched, failed or not. */
    public synchronized int matched(String rule) {
        return find(rule).matched;
    }

    /** Faults injected per rule, in the order the rules were added. */
    public synchronized Map<String, Integer> injected() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        rules.forEach(r -> counts.put(r.rule.name(), r.injected));
        return counts;
    }

    /** One injected fault: the rule, and the request it failed (for a test to tell which item it hit). */
    public record Injection(String rule, SdkRequest request) {}

    /** Every fault injected so far, in order. */
    public synchronized List<Injection> injections() {
        return List.copyOf(injections);
    }

    /** Throws unless every rule injected at least one fault: a fault test whose fault never fired proves nothing. */
    public synchronized void requireFired() {
        List<String> idle = rules.stream().filter(r -> r.injected == 0)
                .map(r -> r.rule.name() + " (matched " + r.matched + " calls)").toList();
        if (!idle.isEmpty()) {
            throw new AssertionError("faults never injected: " + idle + "; injected " + injected());
        }
    }

    private Armed find(String name) {
        return rules.stream().filter(r -> r.rule.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no rule named " + name));
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        attributes.putAttribute(REPLACE, new AtomicReference<>());
        Optional<Rule> fired = fire(context.request(), attributes, false);
        if (fired.isEmpty()) {
            return;
        }
        switch (fired.get().fault()) {
            case Fault.Refused refused -> throw refused.error().apply(context.request());
            case Fault.ReplyLost lost -> attributes.putAttribute(LOSE_REPLY, fired.get());
            case Fault.ErrorReply reply -> throw new IllegalStateException("unreachable: decided per attempt");
        }
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        attributes.getAttribute(REPLACE).set(fire(context.request(), attributes, true)
                .map(rule -> (Fault.ErrorReply) rule.fault()).orElse(null));
    }

    @Override
    public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
        Fault.ErrorReply reply = attributes.getAttribute(REPLACE).get();
        if (reply == null) {
            return context.httpResponse();
        }
        // A fresh answer: the original's headers would not fit the new body (DynamoDB's x-amz-crc32 above all).
        return SdkHttpResponse.builder().statusCode(reply.status()).statusText("injected")
                .putHeader("Content-Type", reply.contentType())
                .putHeader("Content-Length", Integer.toString(reply.body().getBytes(StandardCharsets.UTF_8).length))
                .putHeader("x-amzn-RequestId", "injected-fault")
                .build();
    }

    @Override
    public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
            ExecutionAttributes attributes) {
        Fault.ErrorReply reply = attributes.getAttribute(REPLACE).get();
        if (reply == null) {
            return context.responseBody();
        }
        return Optional.of(new ByteArrayInputStream(reply.body().getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        Rule lost = attributes.getAttribute(LOSE_REPLY);
        if (lost != null) {
            throw ((Fault.ReplyLost) lost.fault()).error().apply(context.request());
        }
    }

    /** The first rule of the phase that matches the call and fires on this match; every matching rule counts it. */
    private synchronized Optional<Rule> fire(SdkRequest request, ExecutionAttributes attributes, boolean perAttempt) {
        if (!armed) {
            return Optional.empty();
        }
        String service = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME);
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        Rule chosen = null;
        for (Armed armedRule : rules) {
            Rule rule = armedRule.rule;
            if ((rule.fault() instanceof Fault.ErrorReply) != perAttempt
                    || !rule.call().matches(service, operation, request)) {
                continue;
            }
            armedRule.matched++;
            if (chosen == null && rule.when().fires(armedRule.matched, armedRule.injected)) {
                armedRule.injected++;
                injections.add(new Injection(rule.name(), request));
                chosen = rule;
            }
        }
        return Optional.ofNullable(chosen);
    }

    /** A rule and its counters. */
    private static final class Armed {
        final Rule rule;
        int matched;
        int injected;

        Armed(Rule rule) {
            this.rule = rule;
        }
    }

    /**
     * @param name how the counters and failure messages call it
     */
    public record Rule(String name, Call call, When when, Fault fault) {
        public Rule {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(call, "call");
            Objects.requireNonNull(when, "when");
            Objects.requireNonNull(fault, "fault");
        }
    }

    /**
     * The calls a rule matches: a service as the SDK names it ({@code DynamoDb}, {@code S3}, {@code Sqs}), an
     * operation ({@code TransactWriteItems}; null for any), and what the request must be about.
     */
    public record Call(String service, String operation, Predicate<SdkRequest> about, String description) {

        public static Call dynamoDb(String operation) {
            return new Call("DynamoDb", operation, r -> true, "DynamoDb " + operation);
        }

        public static Call anyDynamoDb() {
            return new Call("DynamoDb", null, r -> true, "any DynamoDb call");
        }

        public static Call s3(String operation) {
            return new Call("S3", operation, r -> true, "S3 " + operation);
        }

        public static Call sqs(String operation) {
            return new Call("Sqs", operation, r -> true, "Sqs " + operation);
        }

        /** Only requests on this table: its {@code TableName}, or for a transaction, any of its items'. */
        public Call onTable(String table) {
            return and(r -> tables(r).contains(table), " on " + table);
        }

        /** A transaction that deletes an item of the table (a frontier entry's done or requeue, on the sites table). */
        public Call deletingFrom(String table) {
            return and(r -> r instanceof TransactWriteItemsRequest t && t.transactItems().stream()
                    .anyMatch(i -> i.delete() != null && table.equals(i.delete().tableName())), " deleting from " + table);
        }

        /** Only SQS requests to this queue. */
        public Call onQueue(String queueUrl) {
            return and(r -> r.getValueForField("QueueUrl", String.class).filter(queueUrl::equals).isPresent(),
                    " to " + queueUrl.substring(queueUrl.lastIndexOf('/') + 1));
        }

        /** Only S3 requests whose key starts with {@code prefix}. */
        public Call keyPrefix(String prefix) {
            return and(r -> r.getValueForField("Key", String.class).filter(k -> k.startsWith(prefix)).isPresent(),
                    " under " + prefix);
        }

        public Call and(Predicate<SdkRequest> more, String what) {
            return new Call(service, operation, about.and(more), description + what);
        }

        boolean matches(String serviceName, String operationName, SdkRequest request) {
            return service.equals(serviceName) && (operation == null || operation.equals(operationName))
                    && about.test(request);
        }

        private static Set<String> tables(SdkRequest request) {
            if (request instanceof TransactWriteItemsRequest t) {
                return t.transactItems().stream().map(FaultInjector::table).collect(Collectors.toSet());
            }
            return request.getValueForField("TableName", String.class).map(Set::of).orElse(Set.of());
        }
    }

    private static String table(TransactWriteItem item) {
        if (item.put() != null) {
            return item.put().tableName();
        }
        if (item.update() != null) {
            return item.update().tableName();
        }
        if (item.delete() != null) {
            return item.delete().tableName();
        }
        return item.conditionCheck().tableName();
    }

    /** Which matches of a rule fail. */
    @FunctionalInterface
    public interface When {
        /**
         * @param match this match's number, from 1
         * @param injectedSoFar faults the rule injected before this match
         */
        boolean fires(int match, int injectedSoFar);

        /** These matches, numbered from 1. */
        static When matches(int... numbers) {
            Set<Integer> chosen = IntStream.of(numbers).boxed().collect(Collectors.toSet());
            return (match, injected) -> chosen.contains(match);
        }

        /** Each match with this probability, from a seeded random sequence, at most {@code limit} times. */
        static When randomly(double probability, long seed, int limit) {
            Random random = new Random(seed);
            return (match, injected) -> random.nextDouble() < probability && injected < limit;
        }
    }

    /** How a call fails. */
    public sealed interface Fault {
        /** Thrown before the request is sent; nothing landed, and the SDK does not retry it. */
        record Refused(Function<SdkRequest, RuntimeException> error) implements Fault {}

        /** The request landed; the caller gets {@code error} instead of the answer, and the SDK does not retry. */
        record ReplyLost(Function<SdkRequest, RuntimeException> error) implements Fault {}

        /** The request landed and its answer is replaced by this one, which the SDK's retry policy judges. */
        record ErrorReply(int status, String contentType, String body) implements Fault {}
    }

    /** The process dying: what a crash right after a write looks like to the code that made it. */
    public static final class SimulatedCrash extends RuntimeException {
        public SimulatedCrash(String what) {
            super("injected crash after " + what);
        }
    }

    /** A crash right after the call applied. */
    public static Fault crash() {
        return new Fault.ReplyLost(r -> new SimulatedCrash(r.getClass().getSimpleName()));
    }

    /** DynamoDB's ProvisionedThroughputExceededException, as the SDK would throw it after its retries. */
    public static RuntimeException throughputExceeded(SdkRequest request) {
        return ProvisionedThroughputExceededException.builder().statusCode(400).message("injected")
                .awsErrorDetails(details("ProvisionedThroughputExceededException", 400)).build();
    }

    /** DynamoDB's ThrottlingException (a DynamoDbException with that error code). */
    public static RuntimeException throttling(SdkRequest request) {
        return DynamoDbException.builder().statusCode(400).message("injected")
                .awsErrorDetails(details("ThrottlingException", 400)).build();
    }

    /** DynamoDB's 500, InternalServerError. */
    public static RuntimeException dynamoDbInternalError(SdkRequest request) {
        return DynamoDbException.builder().statusCode(500).message("injected")
                .awsErrorDetails(details("InternalServerError", 500)).build();
    }

    /** A transaction cancelled because another one touched its items: one TransactionConflict reason per item. */
    public static RuntimeException transactionConflict(SdkRequest request) {
        int items = request instanceof TransactWriteItemsRequest t ? t.transactItems().size() : 1;
        List<CancellationReason> reasons = new ArrayList<>();
        for (int i = 0; i < items; i++) {
            reasons.add(CancellationReason.builder().code(i == 0 ? "TransactionConflict" : "None")
                    .message(i == 0 ? "Transaction is ongoing for the item" : null).build());
        }
        return TransactionCanceledException.builder().statusCode(400).message("injected")
                .awsErrorDetails(details("TransactionCanceledException", 400)).cancellationReasons(reasons).build();
    }

    /** S3's 500 InternalError. */
    public static RuntimeException s3InternalError(SdkRequest request) {
        return S3Exception.builder().statusCode(500).message("injected")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("InternalError").serviceName("S3")
                        .errorMessage("We encountered an internal error. Please try again.")
                        .sdkHttpResponse(SdkHttpResponse.builder().statusCode(500).build()).build()).build();
    }

    /** SQS's 500 (an AwsServiceException with the InternalFailure code). */
    public static RuntimeException sqsInternalError(SdkRequest request) {
        return software.amazon.awssdk.services.sqs.model.SqsException.builder().statusCode(500).message("injected")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("InternalFailure").serviceName("Sqs")
                        .errorMessage("injected").sdkHttpResponse(SdkHttpResponse.builder().statusCode(500).build())
                        .build()).build();
    }

    /** S3's 503 SlowDown. */
    public static RuntimeException s3SlowDown(SdkRequest request) {
        return S3Exception.builder().statusCode(503).message("injected")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("SlowDown").serviceName("S3")
                        .errorMessage("Please reduce your request rate.").sdkHttpResponse(SdkHttpResponse.builder()
                                .statusCode(503).build()).build()).build();
    }

    /** DynamoDB answers with this error type and status (JSON protocol). */
    public static Fault.ErrorReply dynamoDbReply(int status, String type) {
        return new Fault.ErrorReply(status, "application/x-amz-json-1.0",
                "{\"__type\":\"com.amazonaws.dynamodb.v20120810#" + type + "\",\"message\":\"injected\"}");
    }

    /** S3 answers with this error code and status (REST-XML protocol): 500 InternalError, 503 SlowDown. */
    public static Fault.ErrorReply s3Reply(int status, String code) {
        return new Fault.ErrorReply(status, "application/xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                + "<Error><Code>" + code + "</Code><Message>injected</Message><RequestId>injected</RequestId></Error>");
    }

    private static AwsErrorDetails details(String code, int status) {
        return AwsErrorDetails.builder().errorCode(code).serviceName("DynamoDb").errorMessage("injected")
                .sdkHttpResponse(SdkHttpResponse.builder().statusCode(status).build()).build();
    }
}
