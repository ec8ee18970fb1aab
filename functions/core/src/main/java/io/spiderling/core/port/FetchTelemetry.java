package io.spiderling.core.port;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.politeness.FetchOutcome;
import java.time.Duration;

/**
 * What the function attaches to one fetch invocation: a scope around each job, in which the function labels its log
 * lines with the job, and the counts it publishes as metrics once the invocation ends. The fetch stage calls it from
 * its concurrent lanes (each job on the lane that runs it), so implementations are thread-safe. The default does
 * nothing.
 */
public interface FetchTelemetry {

    FetchTelemetry NONE = new FetchTelemetry() {};

    /** Open while a lane works on {@code job}; closing it puts the lane back as it was. */
    interface Scope extends AutoCloseable {
        Scope NONE = () -> {};

        @Override
        void close();
    }

    /** Entered on the lane that handles {@code job}, for as long as it does. */
    default Scope job(FetchJob job) {
        return Scope.NONE;
    }

    /** A page GET (not robots.txt) ended with {@code outcome} after {@code took}. */
    default void fetched(FetchOutcome outcome, Duration took) {}

    /** A robots.txt GET (or one hop of its redirects) ended with {@code outcome}. */
    default void robotsFetched(FetchOutcome outcome) {}

    /** The site's rate refused a slot; the request waits in the frontier. */
    default void rateRefused() {}

    /** A request missed its slot's send window and was not sent ({@code FailureKind.LATE}). */
    default void lateSend() {}

    /** A job went back to the frontier for another attempt after an error. */
    default void retried() {}

    /** A body of {@code bytes} was written to the blob store. */
    default void stored(long bytes) {}
}
