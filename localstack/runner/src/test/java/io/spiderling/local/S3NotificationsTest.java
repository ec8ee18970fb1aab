package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.S3Event;
import io.spiderling.catalog.BucketPrefix;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class S3NotificationsTest {

    @Test
    void objectCreated_whenOneFunctionIsBusy_anotherFunctionsEventsAreStillHandled() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger planned = new AtomicInteger();
        CountDownLatch extracted = new CountDownLatch(3);
        try (S3Notifications notifications = new S3Notifications("bucket")) {
            notifications.subscribe("plan", List.of(BucketPrefix.MANIFESTS), handler(() -> {
                await(release);
                planned.incrementAndGet();
            }));
            notifications.subscribe("extract", List.of(BucketPrefix.CONTENT), handler(extracted::countDown));

            // More slow events than the planning function has threads, then pages to extract.
            for (int i = 0; i <= S3Notifications.THREADS_PER_FUNCTION; i++) {
                notifications.objectCreated("manifests/batch-" + i + ".jsonl", 10);
            }
            for (int i = 0; i < 3; i++) {
                notifications.objectCreated("content/ab/page-" + i, 10);
            }

            assertTrue(extracted.await(10, TimeUnit.SECONDS), "the pages waited behind the manifests");
            // The last page's handler counted down before its event stopped waiting: let that event finish.
            assertEquals(S3Notifications.THREADS_PER_FUNCTION + 1, waitingOnceSettled(notifications,
                    S3Notifications.THREADS_PER_FUNCTION + 1));
            assertFalse(notifications.await(Duration.ofMillis(100)));
            release.countDown();
            assertTrue(notifications.await(Duration.ofSeconds(10)));
            assertEquals(S3Notifications.THREADS_PER_FUNCTION + 1, planned.get());
            assertEquals(0, notifications.waiting());
        }
    }

    @Test
    void objectCreated_whenPrefixNotifiesNobody_raisesNothing() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (S3Notifications notifications = new S3Notifications("bucket")) {
            notifications.subscribe("extract", List.of(BucketPrefix.CONTENT), handler(calls::incrementAndGet));

            notifications.objectCreated("planned/batch-1.jsonl", 10);

            assertEquals(0, notifications.waiting());
            assertTrue(notifications.await(Duration.ofSeconds(1)));
            assertEquals(0, calls.get());
        }
    }

    @Test
    void objectCreated_whenHandlerFailsTwice_isRetriedLikeAnAsynchronousInvocation() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (S3Notifications notifications = new S3Notifications("bucket")) {
            notifications.subscribe("extract", List.of(BucketPrefix.CONTENT), handler(() -> {
                if (calls.incrementAndGet() < 3) {
                    throw new IllegalStateException("failing on purpose");
                }
            }));

            notifications.objectCreated("content/ab/page", 10);

            assertTrue(notifications.await(Duration.ofSeconds(10)));
            assertEquals(3, calls.get());
        }
    }

    /** {@code notifications.waiting()} once it reaches {@code expected}, or after 5 s what it is then. */
    private static int waitingOnceSettled(S3Notifications notifications, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (notifications.waiting() != expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return notifications.waiting();
    }

    private static RequestHandler<S3Event, Void> handler(Runnable body) {
        return (event, context) -> {
            body.run();
            return null;
        };
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
