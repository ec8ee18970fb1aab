package io.spiderling.local.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.lambda.internal.JsonLogs;
import io.spiderling.lambda.internal.LogContext;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.logmanager.Level;
import org.jboss.logmanager.handlers.WriterHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** Who the meter charges for a call, and how it counts SQS chunks, S3 storage, invocations and log bytes. */
@ExtendWith(EmbeddedAwsExtension.class)
class MeteringTest {

    private static final FunctionSpec FETCH = Catalog.function(FunctionNames.FETCH);
    private static final Account FETCH_ACCOUNT = Account.function(FETCH.name());
    private static final System.Logger LOG = System.getLogger(MeteringTest.class.getName());
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Each test its own meter: nothing else in the JVM counts into it. */
    private final Metering metering = Metering.billing();

    @AfterEach
    void stopMetering() {
        metering.close();
    }

    @Test
    void handler_whenItCallsAws_chargesItsCallsAndInvocationToItsFunction(EmbeddedAws aws, StackResources resources) {
        metering.actAs(Account.HARNESS);
        try (SqsClient sqs = aws.sqs(metering.interceptor()); S3Client s3 = aws.s3(metering.interceptor())) {
            RequestHandler<String, String> handler = metering.handler(FETCH, (body, context) -> {
                sqs.sendMessage(b -> b.queueUrl(resources.fetchQueueUrl()).messageBody(body)
                        .messageGroupId("site").messageDeduplicationId(UUID.randomUUID().toString()));
                s3.putObject(b -> b.bucket(resources.bucket()).key("content/metering-test"),
                        RequestBody.fromString("twelve bytes"));
                return "done";
            });

            handler.handleRequest("x".repeat(100_000), null);
            sqs.sendMessage(b -> b.queueUrl(resources.notifyQueueUrl()).messageBody("outside the invocation"));
        }

        Usage used = metering.snapshot();
        Usage.Calls fifo = used.calls().get(new Usage.Call(FETCH_ACCOUNT, "SQS FIFO", "SendMessage"));
        assertEquals(1, fifo.calls());
        assertEquals(2, fifo.billedRequests(), "100,000 bytes are two 64 KB chunks");
        assertEquals(1, used.calls().get(new Usage.Call(FETCH_ACCOUNT, "S3", "PutObject")).calls());
        assertEquals(1, used.calls().get(new Usage.Call(Account.HARNESS, "SQS standard", "SendMessage")).calls());
        assertEquals(12L, used.storedBytes().get("content/"));
        Usage.Invocations invocations = used.invocations().get(FETCH_ACCOUNT);
        assertEquals(1, invocations.count());
        assertEquals(Billing.gbSeconds(invocations.billedMillis(), FETCH.memoryMb()), invocations.gbSeconds(), 1e-12);
        assertEquals(Billing.LAMBDA_PLATFORM_LOG_BYTES, invocations.logBytes(), "Lambda's lines, nothing logged");
    }

    @Test
    void receive_whenAShortPollFindsNothing_chargesTheLocalStandInNotTheMapping(EmbeddedAws aws,
            StackResources resources) {
        Account mapping = Account.eventSource(FETCH.name());
        metering.actAs(mapping);
        try (SqsClient sqs = aws.sqs(metering.interceptor())) {
            // A queue of its own, empty: the other tests send to the stack's queues.
            String queue = sqs.createQueue(b -> b.queueName("short-poll-" + UUID.randomUUID() + ".fifo")
                    .attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true"))).queueUrl();
            sqs.receiveMessage(b -> b.queueUrl(queue).waitTimeSeconds(0));
            sqs.receiveMessage(b -> b.queueUrl(queue).waitTimeSeconds(1));
        }

        Usage used = metering.snapshot();
        assertEquals(1, used.calls().getOrDefault(new Usage.Call(Account.LOCAL, "SQS FIFO",
                "ReceiveMessage (empty short poll)"), Usage.Calls.NONE).calls(), used.calls().toString());
        assertEquals(1, used.calls().get(new Usage.Call(mapping, "SQS FIFO", "ReceiveMessage (empty)")).calls(),
                "a long poll that found nothing is billed as on AWS");
        assertEquals(2, used.accounts(Account::pipeline).total(s -> true).calls(), "the create and the long poll");
    }

    @Test
    void handler_whenItLogs_countsEachRecordAtTheFunctionsLevelAsItsJsonLine() throws Exception {
        StringWriter lambdaLines = new StringWriter();
        WriterHandler asOnLambda = new WriterHandler();
        asOnLambda.setFormatter(JsonLogs.formatter());
        asOnLambda.setWriter(lambdaLines);
        asOnLambda.setLevel(Level.INFO);
        RequestHandler<String, String> handler = metering.handler(FETCH, (body, context) -> {
            try (LogContext.Scope invocation = LogContext.invocation(FETCH.name(), null);
                    LogContext.Scope item = LogContext.item("batch-1", "hash-1", "example.com")) {
                LOG.log(System.Logger.Level.INFO, "counted, as UTF-8: café");
            }
            LOG.log(System.Logger.Level.WARNING, "counted without the fields");
            LOG.log(System.Logger.Level.DEBUG, "not counted: the functions log at INFO");
            return "done";
        });
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(MeteringTest.class.getName());
        logger.addHandler(asOnLambda);
        try {
            handler.handleRequest("", null);
        } finally {
            logger.removeHandler(asOnLambda);
            asOnLambda.flush();
        }

        List<String> lines = lambdaLines.toString().lines().toList();
        assertEquals(2, lines.size(), lambdaLines.toString());
        JsonNode labelled = JSON.readTree(lines.get(0));
        assertEquals("counted, as UTF-8: café", labelled.get("message").asText());
        assertEquals("batch-1", labelled.at("/mdc/batchId").asText());
        assertEquals("example.com", labelled.at("/mdc/site").asText());
        assertEquals(FETCH.name(), labelled.at("/mdc/stage").asText());
        assertTrue(JSON.readTree(lines.get(1)).at("/mdc/batchId").isMissingNode(), lines.get(1));
        long jsonBytes = lambdaLines.toString().getBytes(StandardCharsets.UTF_8).length;
        assertEquals(Billing.LAMBDA_PLATFORM_LOG_BYTES + jsonBytes,
                metering.snapshot().invocations().get(FETCH_ACCOUNT).logBytes(),
                "Lambda's lines and the INFO and WARN records as the functions' JSON formatter writes them");
    }

    @Test
    void httpHandler_whenRequestMarkedAsTheHarness_chargesTheHarness() {
        var api = Catalog.function(FunctionNames.API);
        var event = new APIGatewayV2HTTPEvent();

        event.setHeaders(Map.of(Metering.HARNESS_HEADER, "status poll"));
        metering.httpHandler(api, (e, context) -> "polled").handleRequest(event, null);
        event.setHeaders(Map.of());
        metering.httpHandler(api, (e, context) -> "served").handleRequest(event, null);

        Usage used = metering.snapshot();
        Account apiAccount = Account.function(api.name());
        assertEquals(1, used.invocations().get(Account.HARNESS).count());
        assertEquals(1, used.invocations().get(apiAccount).count());
        assertEquals(1, used.calls().get(new Usage.Call(apiAccount, "API Gateway", "HTTP API request")).calls());
        assertEquals(1, used.calls().get(new Usage.Call(Account.HARNESS, "API Gateway", "HTTP API request")).calls());
    }

    @Test
    void interceptor_whenAClientDoesNotCarryIt_countsNothingOfItsCalls(EmbeddedAws aws, StackResources resources) {
        try (SqsClient metered = aws.sqs(metering.interceptor())) {
            metering.handler(FETCH, (body, context) -> {
                aws.sqs().sendMessage(b -> b.queueUrl(resources.notifyQueueUrl()).messageBody("not metered"));
                return metered.sendMessage(b -> b.queueUrl(resources.notifyQueueUrl()).messageBody("metered"));
            }).handleRequest("", null);
        }

        Usage used = metering.snapshot();
        assertEquals(Map.of(new Usage.Call(FETCH_ACCOUNT, "SQS standard", "SendMessage"), new Usage.Calls(1, 1, 0, 0,
                0)), used.calls());
        try (Metering other = Metering.counting()) {
            assertEquals(Usage.NONE.calls(), other.snapshot().calls(), "another meter saw nothing");
        }
    }

    @Test
    void standIn_whenCalledInsideAnInvocation_chargesTheLocalStandInThenTheInvocationAgain(EmbeddedAws aws,
            StackResources resources) {
        try (SqsClient sqs = aws.sqs(metering.interceptor())) {
            metering.handler(FETCH, (body, context) -> {
                metering.standIn(() -> sqs.sendMessage(b -> b.queueUrl(resources.notifyQueueUrl()).messageBody("s")));
                return sqs.sendMessage(b -> b.queueUrl(resources.notifyQueueUrl()).messageBody("f"));
            }).handleRequest("", null);
        }

        Map<Account, Usage.Calls> byAccount = metering.snapshot().byAccount(service -> true);
        assertEquals(1, byAccount.get(Account.LOCAL).calls());
        assertEquals(1, byAccount.get(FETCH_ACCOUNT).calls());
    }
}
