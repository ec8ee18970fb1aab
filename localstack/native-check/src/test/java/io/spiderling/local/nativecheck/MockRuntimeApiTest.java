package io.spiderling.local.nativecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The mock Runtime API, driven by a client that plays a Lambda runtime's poll loop. */
class MockRuntimeApiTest {

    private static final String ARN = "arn:aws:lambda:us-east-1:000000000000:function:api";
    private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");

    private final HttpClient client = HttpClient.newHttpClient();
    private final AtomicLong nanos = new AtomicLong(1_000);

    @Test
    void next_whenRuntimeAsks_expectEventWithRequestIdDeadlineAndArnThenAnswersRecordedInOrder() throws Exception {
        var first = new MockRuntimeApi.Invocation("req-1", "{\"n\":1}", Duration.ofSeconds(29));
        var second = new MockRuntimeApi.Invocation("req-2", "{\"n\":2}", Duration.ofSeconds(29));
        try (MockRuntimeApi api = start(List.of(first, second))) {
            HttpResponse<String> next = get(api, "invocation/next");
            nanos.set(9_000);
            assertEquals(202, post(api, "invocation/req-1/response", "42").statusCode());
            HttpResponse<String> again = get(api, "invocation/next");
            assertFalse(api.outcome().isDone(), "one answer of two");
            assertEquals(202, post(api, "invocation/req-2/error", "{\"errorMessage\":\"boom\"}",
                    "Lambda-Runtime-Function-Error-Type", "java.lang.IllegalStateException").statusCode());

            assertEquals("{\"n\":1}", next.body());
            assertEquals("req-1", next.headers().firstValue("Lambda-Runtime-Aws-Request-Id").orElseThrow());
            assertEquals(String.valueOf(NOW.plusSeconds(29).toEpochMilli()),
                    next.headers().firstValue("Lambda-Runtime-Deadline-Ms").orElseThrow());
            assertEquals(ARN, next.headers().firstValue("Lambda-Runtime-Invoked-Function-Arn").orElseThrow());
            assertEquals("req-2", again.headers().firstValue("Lambda-Runtime-Aws-Request-Id").orElseThrow());
            assertEquals(1_000, api.firstNextNanos().orElseThrow(), "the first next, not the last");
            var answered = assertInstanceOf(MockRuntimeApi.Outcome.Answered.class,
                    api.outcome().get(1, TimeUnit.SECONDS));
            assertEquals(new MockRuntimeApi.Answer.Response("req-1", "42"), answered.answers().get(0));
            var failure = assertInstanceOf(MockRuntimeApi.Answer.Failure.class, answered.answers().get(1));
            assertEquals("java.lang.IllegalStateException", failure.errorType().orElseThrow());
        }
    }

    @Test
    void answer_whenRequestIdUnknownOrAnsweredTwice_expect400AndNotRecorded() throws Exception {
        try (MockRuntimeApi api = start(List.of(new MockRuntimeApi.Invocation("req-1", "{}", Duration.ofSeconds(3)),
                new MockRuntimeApi.Invocation("req-2", "{}", Duration.ofSeconds(3))))) {
            assertEquals(400, post(api, "invocation/req-2/response", "early").statusCode(), "not handed out yet");
            get(api, "invocation/next");
            assertEquals(202, post(api, "invocation/req-1/response", "1").statusCode());

            assertEquals(400, post(api, "invocation/req-1/response", "again").statusCode());
            assertEquals(404, post(api, "invocation/req-1/surprise", "").statusCode());
            assertFalse(api.outcome().isDone());
        }
    }

    @Test
    void initError_whenRuntimeCannotStart_expectOutcomeWithoutAnyInvocation() throws Exception {
        try (MockRuntimeApi api = start(List.of(new MockRuntimeApi.Invocation("req-1", "{}", Duration.ofSeconds(3))))) {
            assertEquals(202, post(api, "init/error", "{\"errorMessage\":\"SPIDERLING_QUEUES_FETCH is not set\"}",
                    "Lambda-Runtime-Function-Error-Type", "Runtime.Unknown").statusCode());

            var failed = assertInstanceOf(MockRuntimeApi.Outcome.InitFailed.class,
                    api.outcome().get(1, TimeUnit.SECONDS));
            assertTrue(failed.body().contains("SPIDERLING_QUEUES_FETCH"));
            assertTrue(api.firstNextNanos().isEmpty(), "it never asked for work");
        }
    }

    @Test
    void next_whenNothingLeft_expectItWaitsUntilClosed() throws Exception {
        MockRuntimeApi api = start(List.of());
        CompletableFuture<HttpResponse<String>> waiting = client.sendAsync(request(api, "invocation/next").GET()
                .build(), HttpResponse.BodyHandlers.ofString());
        Thread.sleep(300);
        assertFalse(waiting.isDone(), "a runtime with nothing to do waits in next");

        api.close();

        assertEquals(500, waiting.get(5, TimeUnit.SECONDS).statusCode());
    }

    private MockRuntimeApi start(List<MockRuntimeApi.Invocation> invocations) {
        return MockRuntimeApi.start(ARN, invocations, Clock.fixed(NOW, ZoneOffset.UTC), nanos::get);
    }

    private HttpRequest.Builder request(MockRuntimeApi api, String path) {
        return HttpRequest.newBuilder(URI.create("http://" + api.address() + MockRuntimeApi.BASE + path));
    }

    private HttpResponse<String> get(MockRuntimeApi api, String path) throws Exception {
        return client.send(request(api, path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(MockRuntimeApi api, String path, String body, String... headers)
            throws Exception {
        HttpRequest.Builder request = request(api, path).POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
