package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

class DoorbellTest {

    private static final String FETCH = "http://localhost:9324/000000000000/fetch.fifo";
    private final Doorbell bell = new Doorbell(FETCH);

    @Test
    void await_whenItRangDuringThePoll_returnsAtOnce() throws InterruptedException {
        long seen = bell.rings();
        bell.ring();
        long start = System.nanoTime();

        bell.await(seen, Duration.ofSeconds(10));

        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(5)) < 0);
    }

    @Test
    void await_whenItRingsWhileWaiting_returnsBeforeThePauseEnds() throws InterruptedException {
        long seen = bell.rings();
        Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            bell.ring();
        });
        long start = System.nanoTime();

        bell.await(seen, Duration.ofSeconds(10));

        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(5)) < 0);
    }

    @Test
    void await_whenNothingIsSent_waitsTheWholePause() throws InterruptedException {
        long start = System.nanoTime();

        bell.await(bell.rings(), Duration.ofMillis(30));

        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofMillis(30)) >= 0);
    }

    @Test
    void onSends_ringsForSendsToItsQueueOnly() {
        sent(SendMessageRequest.builder().queueUrl(FETCH).messageBody("a").build());
        sent(SendMessageBatchRequest.builder().queueUrl(FETCH).build());
        sent(SendMessageRequest.builder().queueUrl("http://localhost:9324/000000000000/notify").messageBody("b")
                .build());

        assertEquals(2, bell.rings());
    }

    private void sent(SdkRequest request) {
        bell.onSends().afterExecution(new Context.AfterExecution() {
            @Override
            public SdkRequest request() {
                return request;
            }

            @Override
            public java.util.Optional<software.amazon.awssdk.core.sync.RequestBody> requestBody() {
                return java.util.Optional.empty();
            }

            @Override
            public software.amazon.awssdk.http.SdkHttpRequest httpRequest() {
                return null;
            }

            @Override
            public java.util.Optional<software.amazon.awssdk.core.async.AsyncRequestBody> asyncRequestBody() {
                return java.util.Optional.empty();
            }

            @Override
            public software.amazon.awssdk.http.SdkHttpResponse httpResponse() {
                return null;
            }

            @Override
            public java.util.Optional<org.reactivestreams.Publisher<java.nio.ByteBuffer>> responsePublisher() {
                return java.util.Optional.empty();
            }

            @Override
            public java.util.Optional<java.io.InputStream> responseBody() {
                return java.util.Optional.empty();
            }

            @Override
            public software.amazon.awssdk.core.SdkResponse response() {
                return null;
            }
        }, new ExecutionAttributes());
    }
}
