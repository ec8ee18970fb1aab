package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.aws.DynamoDbBatchStore;
import io.spiderling.aws.FetchJobCodec;
import io.spiderling.catalog.Metrics;
import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.pipeline.fetch.FetchPage;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.lambda.fetch.FetchDeadLetterHandler;
import io.spiderling.lambda.fetch.FetchHandler;
import io.spiderling.lambda.internal.JsonLogs;
import io.spiderling.lambda.internal.LogContext;
import io.spiderling.testkit.LocalSite;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logmanager.Level;
import org.jboss.logmanager.Logger;
import org.jboss.logmanager.handlers.WriterHandler;
import org.junit.jupiter.api.Test;

/**
 * What an operator reads on Lambda, from real handler runs on the embedded stack: log lines as JSON carrying the
 * invocation's and the job's fields, also from the fetch lanes that run sites side by side on virtual threads; and
 * metrics lines that are valid CloudWatch embedded metric format, one per set of dimension values, with no site or
 * URL among the dimensions.
 */
@QuarkusTest
@TestProfile(HandlerProfiles.Fetch.class)
@QuarkusTestResource(TestStack.class)
class ObservabilityTest {

    private static final Set<String> UNITS = Set.of("Seconds", "Milliseconds", "Count", "Bytes");

    @Inject
    Pipeline pipeline;

    @Inject
    Vertx vertx;

    private final DynamoDbBatchStore batches =
            new DynamoDbBatchStore(TestStack.aws().dynamoDb(), TestStack.resources().batchesTable());

    @Test
    void fetchHandler_whenJobsOfTwoSitesRun_expectJsonLinesWithEachJobsFieldsAndOneEmfLinePerDimensionSet()
            throws Exception {
        LocalSite first = TestStack.sites().site(0);
        LocalSite second = TestStack.sites().site(1);
        String unique = Long.toString(System.nanoTime());
        first.page("/obs/a-" + unique, "<title>a " + unique + "</title>");
        second.page("/obs/b-" + unique, "<title>b " + unique + "</title>");
        NormalizedUrl a = NormalizedUrl.parse(first.url("/obs/a-" + unique));
        NormalizedUrl b = NormalizedUrl.parse(second.url("/obs/b-" + unique));
        batch("obs-a-" + unique, a);
        batch("obs-b-" + unique, b);
        SQSEvent event = event(new FetchJob("obs-a-" + unique, a, 1), new FetchJob("obs-b-" + unique, b, 1));

        Captured run = run(metrics -> new FetchHandler(metrics).handleRequest(event,
                context("req-obs-" + unique, "spiderling-fetch-XyZ")));

        Map<String, JsonNode> byBatch = new HashMap<>();
        for (JsonNode line : run.logs()) {
            if (line.path("loggerName").asText().equals(FetchPage.class.getName())) {
                byBatch.put(line.path("mdc").path(LogContext.BATCH_ID).asText(), line);
            }
        }
        Set<String> threads = new HashSet<>();
        for (FetchJob job : List.of(new FetchJob("obs-a-" + unique, a, 1), new FetchJob("obs-b-" + unique, b, 1))) {
            JsonNode line = byBatch.get(job.batchId());
            assertTrue(line != null, () -> "no line of the fetch stage for " + job.batchId() + " in " + run.logs());
            JsonNode mdc = line.get("mdc");
            assertEquals("fetch", mdc.path(LogContext.STAGE).asText());
            assertEquals("req-obs-" + unique, mdc.path(LogContext.REQUEST_ID).asText());
            assertEquals(job.urlHash(), mdc.path(LogContext.URL_HASH).asText());
            assertEquals(job.siteKey().value(), mdc.path(LogContext.SITE).asText());
            assertTrue(line.path("message").asText().contains(job.url().value()));
            assertEquals("DEBUG", line.path("level").asText());
            threads.add(line.path("threadName").asText());
        }
        assertEquals(2, threads.size(), "the two sites ran on two lanes: " + threads);

        List<JsonNode> emf = run.metrics();
        for (JsonNode line : emf) {
            assertValidEmf(line, "spiderling-fetch-XyZ", Set.of(a.value(), b.value(), a.siteKey().value(),
                    b.siteKey().value()));
        }
        JsonNode byFunction = only(emf, Map.of());
        assertEquals(2, byFunction.get(Metrics.FETCH_LATENCY).size(), "one latency per GET, in one line");
        assertTrue(byFunction.get(Metrics.BYTES_STORED).asDouble() > 0, byFunction::toString);
        assertEquals(2.0, only(emf, Map.of(Metrics.OUTCOME_DIMENSION, "ok")).get(Metrics.FETCH_OUTCOMES).asDouble());
        Set<String> outcomes = new HashSet<>();
        emf.forEach(line -> outcomes.add(line.path(Metrics.OUTCOME_DIMENSION).asText("")));
        assertEquals(outcomes.size(), emf.size(), "one line per set of dimension values: " + emf);
        assertTrue(run.logs().stream().noneMatch(line -> line.toString().contains("_aws")),
                "metrics go to standard output, not through the logger");
        assertTrue(LogContext.current().isEmpty(), "nothing is left on the handler's thread: " + LogContext.current());
    }

    @Test
    void fetchDeadLetterHandler_whenAJobArrives_expectItsWarningLabelledAndOneDlqSend() throws Exception {
        NormalizedUrl url = NormalizedUrl.parse(TestStack.sites().site(0).url("/obs/poison"));
        batch("obs-dlq", url);
        FetchJob job = new FetchJob("obs-dlq", url, 3);

        Captured run = run(metrics -> new FetchDeadLetterHandler(metrics).handleRequest(event(job),
                context("req-obs-dlq", "spiderling-fetch-dlq-AbC")));

        JsonNode warning = run.logs().stream()
                .filter(line -> line.path("level").asText().equals("WARN")
                        && line.path("message").asText().contains("dead-lettered"))
                .findFirst().orElseThrow(() -> new AssertionError("no warning in " + run.logs()));
        JsonNode mdc = warning.get("mdc");
        assertEquals("fetch-dlq", mdc.path(LogContext.STAGE).asText());
        assertEquals("req-obs-dlq", mdc.path(LogContext.REQUEST_ID).asText());
        assertEquals("obs-dlq", mdc.path(LogContext.BATCH_ID).asText());
        assertEquals(url.urlHash(), mdc.path(LogContext.URL_HASH).asText());
        assertEquals(url.siteKey().value(), mdc.path(LogContext.SITE).asText());
        assertEquals(1, run.metrics().size(), run.metrics()::toString);
        assertValidEmf(run.metrics().getFirst(), "spiderling-fetch-dlq-AbC", Set.of(url.value()));
        assertEquals(1.0, run.metrics().getFirst().get(Metrics.DLQ_SENDS).asDouble());
    }

    /** What a run printed: its log records as the JSON format writes them, and its metrics lines, each parsed. */
    private record Captured(List<JsonNode> logs, List<JsonNode> metrics) {}

    @FunctionalInterface
    private interface Invocation {
        void run(Pipeline withMetrics) throws Exception;
    }

    /**
     * Runs a handler built on a pipeline like the function's, whose metrics go to a buffer, while the JSON formatter
     * writes every record (the fetch stage's DEBUG lines included) to another.
     */
    private Captured run(Invocation invocation) throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        StringWriter logged = new StringWriter();
        WriterHandler handler = new WriterHandler();
        handler.setFormatter(JsonLogs.formatter());
        handler.setWriter(logged);
        handler.setLevel(Level.ALL);
        Logger root = org.jboss.logmanager.LogContext.getLogContext().getLogger("");
        Logger stage = org.jboss.logmanager.LogContext.getLogContext().getLogger(FetchPage.class.getName());
        java.util.logging.Level before = stage.getLevel();
        stage.setLevel(Level.DEBUG);
        root.addHandler(handler);
        try (Pipeline withMetrics = Pipeline.builder().config(pipeline.config()).vertx(vertx)
                .clock(pipeline.clock()).metrics(new PrintStream(printed, true, StandardCharsets.UTF_8)).build()) {
            invocation.run(withMetrics);
        } finally {
            root.removeHandler(handler);
            stage.setLevel(before);
            handler.flush();
        }
        List<JsonNode> logs = new ArrayList<>();
        for (String line : logged.toString().lines().toList()) {
            logs.add(Events.JSON.readTree(line));
        }
        List<JsonNode> metrics = new ArrayList<>();
        for (String line : printed.toString(StandardCharsets.UTF_8).lines().toList()) {
            metrics.add(Events.JSON.readTree(line));
        }
        return new Captured(logs, metrics);
    }

    /**
     * The embedded metric format's rules: a directive naming the namespace, dimension sets whose every key is a
     * top-level string member, and metrics whose every name is a top-level number (or array of at most 100); and
     * ours: only the catalog's dimensions and metrics, units CloudWatch knows, and no site or URL anywhere in a
     * dimension.
     */
    private static void assertValidEmf(JsonNode line, String function, Set<String> neverDimensions) {
        JsonNode aws = line.get("_aws");
        assertTrue(aws != null && aws.get("Timestamp").isIntegralNumber(), line::toString);
        assertFalse(aws.get("CloudWatchMetrics").isEmpty(), line::toString);
        for (JsonNode directive : aws.get("CloudWatchMetrics")) {
            assertEquals(Metrics.NAMESPACE, directive.get("Namespace").asText());
            for (JsonNode set : directive.get("Dimensions")) {
                assertTrue(set.size() >= 1 && set.size() <= 2, line::toString);
                assertEquals(Metrics.FUNCTION_DIMENSION, set.get(0).asText());
                for (JsonNode dimension : set) {
                    assertTrue(Set.of(Metrics.FUNCTION_DIMENSION, Metrics.OUTCOME_DIMENSION)
                            .contains(dimension.asText()), line::toString);
                    JsonNode value = line.get(dimension.asText());
                    assertTrue(value != null && value.isTextual(), () -> dimension + " missing in " + line);
                    assertFalse(neverDimensions.contains(value.asText()), line::toString);
                }
            }
            assertEquals(function, line.get(Metrics.FUNCTION_DIMENSION).asText());
            assertFalse(directive.get("Metrics").isEmpty(), line::toString);
            for (JsonNode metric : directive.get("Metrics")) {
                String name = metric.get("Name").asText();
                assertEquals(Metrics.UNITS.get(name), metric.get("Unit").asText(), name);
                assertTrue(UNITS.contains(metric.get("Unit").asText()), name);
                JsonNode value = line.get(name);
                assertTrue(value != null, () -> name + " is declared but not a member of " + line);
                if (value.isArray()) {
                    assertTrue(value.size() >= 1 && value.size() <= 100, line::toString);
                    value.forEach(v -> assertTrue(v.isNumber(), line::toString));
                } else {
                    assertTrue(value.isNumber(), line::toString);
                }
            }
        }
    }

    /** The one line whose dimensions beyond the function's are exactly {@code extra}. */
    private static JsonNode only(List<JsonNode> lines, Map<String, String> extra) {
        List<JsonNode> found = lines.stream().filter(line -> {
            JsonNode dimensions = line.get("_aws").get("CloudWatchMetrics").get(0).get("Dimensions").get(0);
            if (dimensions.size() != 1 + extra.size()) {
                return false;
            }
            return extra.entrySet().stream().allMatch(e -> line.path(e.getKey()).asText().equals(e.getValue()));
        }).toList();
        assertEquals(1, found.size(), () -> "lines with " + extra + ": " + lines);
        return found.getFirst();
    }

    private void batch(String batchId, NormalizedUrl url) {
        batches.createBatch(BatchHeader.builder().batchId(batchId).total(1)
                .source(BatchSource.HTTP).createdAt(Instant.now()).build());
        batches.addItems(batchId, List.of(url), Instant.now());
    }

    private static SQSEvent event(FetchJob... jobs) {
        List<SQSEvent.SQSMessage> messages = new ArrayList<>();
        for (FetchJob job : jobs) {
            SQSEvent.SQSMessage message = new SQSEvent.SQSMessage();
            message.setMessageId("msg-" + job.batchId());
            message.setBody(FetchJobCodec.encode(job));
            message.setAttributes(Map.of("MessageGroupId", job.siteKey().messageGroupId()));
            messages.add(message);
        }
        SQSEvent event = new SQSEvent();
        event.setRecords(messages);
        return event;
    }

    /** Lambda's context as far as the handlers read it. */
    private static Context context(String requestId, String functionName) {
        return (Context) Proxy.newProxyInstance(Context.class.getClassLoader(), new Class<?>[] {Context.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getAwsRequestId" -> requestId;
                    case "getFunctionName" -> functionName;
                    case "getRemainingTimeInMillis" -> 60_000;
                    default -> null;
                });
    }
}
