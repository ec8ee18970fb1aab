package io.spiderling.local;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.S3Event;
import io.spiderling.catalog.BucketPrefix;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * S3's ObjectCreated notifications on the local stack, which s3proxy does not raise: each notified function gets the
 * events of its prefixes as asynchronous invocations, on its own threads, as each function on Lambda has its own
 * concurrency. One function's backlog (a batch of large manifests being planned) therefore never holds up another's
 * (the extraction of pages already fetched), which one shared pool did: in the soak, 7,600 page events waited behind
 * the planning of 100,000 URLs, and the wait showed as a growing heap.
 *
 * <p>The events waiting are held in memory, as Lambda holds them in its own queue for up to six hours; {@link #waiting}
 * says how many, so a long run can tell a backlog from a leak.
 */
final class S3Notifications implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(S3Notifications.class.getName());
    /** Asynchronous invocations are retried twice on error; Lambda waits minutes, locally it is a quarter second. */
    private static final int ATTEMPTS = 3;
    /** Concurrent invocations of each notified function. */
    static final int THREADS_PER_FUNCTION = 2;

    /** One notified function: its handler and its threads. */
    private record Target(String function, RequestHandler<S3Event, ?> handler, ExecutorService invocations) {}

    private final String bucket;
    private final Map<BucketPrefix, Target> byPrefix = new EnumMap<>(BucketPrefix.class);
    private final List<Target> targets = new ArrayList<>();
    private final Object lock = new Object();
    /** Raised and not yet handled (waiting or running). */
    private int inFlight;

    S3Notifications(String bucket) {
        this.bucket = bucket;
    }

    /** Notifies {@code function} of the objects created under {@code prefixes}. Called while wiring, before events. */
    void subscribe(String function, List<BucketPrefix> prefixes, RequestHandler<S3Event, ?> handler) {
        Target target = new Target(function, handler, Executors.newFixedThreadPool(THREADS_PER_FUNCTION,
                Thread.ofPlatform().name("s3-" + function + "-", 0).daemon().factory()));
        targets.add(target);
        prefixes.forEach(prefix -> byPrefix.put(prefix, target));
    }

    /** An object was created: its function, if its prefix has one, is invoked with the event. */
    void objectCreated(String key, long size) {
        Optional<Target> target = BucketPrefix.of(key).map(byPrefix::get);
        if (target.isEmpty()) {
            return; // planned/ notifies nobody, as on AWS
        }
        S3Event event = LocalEvents.objectCreated(bucket, key, size, Instant.now());
        synchronized (lock) {
            inFlight++;
        }
        target.get().invocations().execute(() -> {
            try {
                deliver(key, event, target.get());
            } finally {
                synchronized (lock) {
                    inFlight--;
                    lock.notifyAll();
                }
            }
        });
    }

    private static void deliver(String key, S3Event event, Target target) {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                target.handler().handleRequest(event, null);
                return;
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "S3 event for " + key + " failed in " + target.function()
                        + " (attempt " + attempt + ")", e);
                try {
                    Thread.sleep(Duration.ofMillis(250L * attempt));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
        LOG.log(System.Logger.Level.ERROR, "S3 event for " + key + " dropped after " + ATTEMPTS + " attempts");
    }

    /** Events raised and not yet handled, over all functions. */
    int waiting() {
        synchronized (lock) {
            return inFlight;
        }
    }

    /** Waits until every event raised so far has been handled. Returns false on timeout. */
    boolean await(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (inFlight > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(lock, left);
            }
        }
        return true;
    }

    @Override
    public void close() {
        targets.forEach(t -> t.invocations().shutdown());
    }
}
