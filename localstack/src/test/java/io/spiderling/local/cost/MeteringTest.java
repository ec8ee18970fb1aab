package io.spiderling.local.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.util.Map;
import java.util.UUID;
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
            LOG.log(System.Logger.Level.INFO, "counted");
            LOG.log(System.Logger.Level.DEBUG, "not counted: the functions log at INFO");
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
        String line = "2026-11-24 00:00:00,000 INFO  [io.spi.loc.cos.MeteringTest] ("
                + Thread.currentThread().getName() + ") counted\n";
        assertEquals(Billing.LAMBDA_PLATFORM_LOG_BYTES + line.length(), invocations.logBytes(),
                "Lambda's lines and the INFO record as Quarkus formats it");
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
