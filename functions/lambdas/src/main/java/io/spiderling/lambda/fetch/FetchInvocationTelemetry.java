package io.spiderling.lambda.fetch;

import io.spiderling.catalog.Metrics;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.politeness.FetchOutcome;
import io.spiderling.core.port.FetchTelemetry;
import io.spiderling.lambda.internal.EmbeddedMetrics;
import io.spiderling.lambda.internal.LogContext;
import java.time.Duration;
import java.util.Map;

/**
 * One fetch invocation's telemetry: each job's lane (a virtual thread, or the handler's own) labels its log lines with
 * the invocation's fields, taken on the handler's thread when this was made, plus the job's; and the counts go into
 * one {@link EmbeddedMetrics.Tally}, published when the invocation ends.
 */
final class FetchInvocationTelemetry implements FetchTelemetry {

    private final Map<String, String> invocation = LogContext.current();
    private final EmbeddedMetrics.Tally tally = new EmbeddedMetrics.Tally();

    EmbeddedMetrics.Tally tally() {
        return tally;
    }

    @Override
    public Scope job(FetchJob job) {
        LogContext.Scope resumed = LogContext.resume(invocation);
        LogContext.Scope labelled = LogContext.job(job);
        return () -> {
            labelled.close();
            resumed.close();
        };
    }

    @Override
    public void fetched(FetchOutcome outcome, Duration took) {
        tally.observe(Metrics.FETCH_LATENCY, took.toNanos() / 1_000_000.0);
        tally.add(Metrics.FETCH_OUTCOMES, outcome.wireName(), 1);
    }

    @Override
    public void robotsFetched(FetchOutcome outcome) {
        tally.add(Metrics.ROBOTS_OUTCOMES, outcome.wireName(), 1);
    }

    @Override
    public void rateRefused() {
        tally.add(Metrics.RATE_REFUSALS, 1);
    }

    @Override
    public void lateSend() {
        tally.add(Metrics.LATE_SENDS, 1);
    }

    @Override
    public void retried() {
        tally.add(Metrics.RETRIES, 1);
    }

    @Override
    public void stored(long bytes) {
        tally.add(Metrics.BYTES_STORED, bytes);
    }
}
