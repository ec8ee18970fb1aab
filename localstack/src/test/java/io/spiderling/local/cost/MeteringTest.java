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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;

/** Who the meter charges for a call, and how it counts SQS chunks, S3 storage, invocations and log bytes. */
@ExtendWith(EmbeddedAwsExtension.class)
class MeteringTest {

    private static final FunctionSpec FETCH = Catalog.function(FunctionNames.FETCH);
    private static final System.Logger LOG = System.getLogger(MeteringTest.class.getName());
    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void meter() {
        Metering.enable();
    }

    @AfterAll
    static void stopMetering() {
        Metering.disable();
        Metering.actAs(null);
    }

    @Test
    void handler_whenItCallsAws_chargesItsCallsAndInvocationToItsFunction(EmbeddedAws aws, StackResources resources) {
        String standing = "standing " + UUID.randomUUID();
        Metering.actAs(standing);
        Usage before = Metering.snapshot();
        RequestHandler<String, String> handler = Metering.handler(FETCH, (body, context) -> {
            aws.sqs().sendMessage(b -> b.queueUrl(resources.fetchQueueUrl()).messageBody(body)
                    .messageGroupId("site").messageDeduplicationId(UUID.randomUUID().toString()));
            aws.s3().putObject(b -> b.bucket(resources.bucket()).key("content/metering-test"),
                    RequestBody.fromString("twelve bytes"));
            return "done";
        });

        handler.handleRequest("x".repeat(100_000), null);
        aws.sqs().sendMessage(b -> b.queueUrl(resources.notifyQueueUrl()).messageBody("outside the invocation"));

        Usage used = Metering.snapshot().minus(before);
        Usage.Calls fifo = used.calls().get(new Usage.Call(FETCH.name(), "SQS FIFO", "SendMessage"));
        assertEquals(1, fifo.calls());
        assertEquals(2, fifo.billedRequests(), "100,000 bytes are two 64 KB chunks");
        assertEquals(1, used.calls().get(new Usage.Call(FETCH.name(), "S3", "PutObject")).calls());
        assertEquals(1, used.calls().get(new Usage.Call(standing, "SQS standard", "SendMessage")).calls());
        assertEquals(12L, used.storedBytes().get("content/"));
        Usage.Invocations invocations = used.invocations().get(FETCH.name());
        assertEquals(1, invocations.count());
        assertEquals(Billing.gbSeconds(invocations.billedMillis(), FETCH.memoryMb()), invocations.gbSeconds(), 1e-12);
        assertEquals(Billing.LAMBDA_PLATFORM_LOG_BYTES, invocations.logBytes(), "Lambda's lines, nothing logged");
    }

    @Test
    void handler_whenItLogs_countsEachRecordAtTheFunctionsLevelAsItsJsonLine() throws Exception {
        Usage before = Metering.snapshot();
        StringWriter lambdaLines = new StringWriter();
        WriterHandler asOnLambda = new WriterHandler();
        asOnLambda.setFormatter(JsonLogs.formatter());
        asOnLambda.setWriter(lambdaLines);
        asOnLambda.setLevel(Level.INFO);
        RequestHandler<String, String> handler = Metering.handler(FETCH, (body, context) -> {
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
                Metering.snapshot().minus(before).invocations().get(FETCH.name()).logBytes(),
                "Lambda's lines and the INFO and WARN records as the functions' JSON formatter writes them");
    }

    @Test
    void httpHandler_whenRequestMarkedAsTheHarness_chargesTheHarness() {
        var api = Catalog.function(FunctionNames.API);
        var event = new APIGatewayV2HTTPEvent();
        Usage before = Metering.snapshot();

        event.setHeaders(Map.of(Metering.HARNESS_HEADER, "status poll"));
        Metering.httpHandler(api, (e, context) -> "polled").handleRequest(event, null);
        event.setHeaders(Map.of());
        Metering.httpHandler(api, (e, context) -> "served").handleRequest(event, null);

        Usage used = Metering.snapshot().minus(before);
        assertEquals(1, used.invocations().get(Metering.HARNESS).count());
        assertEquals(1, used.invocations().get(api.name()).count());
        assertEquals(1, used.calls().get(new Usage.Call(api.name(), "API Gateway", "HTTP API request")).calls());
        assertEquals(1, used.calls().get(new Usage.Call(Metering.HARNESS, "API Gateway", "HTTP API request")).calls());
    }
}
