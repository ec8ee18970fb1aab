package io.spiderling.lambda.sweep;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.Metrics;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.pipeline.ingest.Canonicalize;
import io.spiderling.core.pipeline.ingest.PlanUpload;
import io.spiderling.lambda.Pipeline;
import io.spiderling.lambda.internal.EmbeddedMetrics;
import io.spiderling.lambda.internal.LogContext;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * An EventBridge schedule (every minute): plan manifests and uploads whose S3 event never planned them; look at the
 * frontier's sites due for a look, within a bounded walk (releasing what is due and re-sending jobs presumed lost:
 * fetches finishing release their own site's next entries, this catches the rest); and publish the frontier's lag,
 * which the stack alarms on.
 */
@Named("sweep")
@Singleton
public class SweepHandler implements RequestHandler<ScheduledEvent, Integer> {

    /** Stranded manifests (and uploads) planned per run; more wait for the next minute. */
    static final int STRANDED_PER_RUN = 20;
    /** What the sweep keeps of its invocation after the frontier's walk: the lag metric and the reply. */
    static final Duration MARGIN = Duration.ofSeconds(10);

    private final Frontier frontier;
    private final Canonicalize canonicalize;
    private final PlanUpload planUpload;
    private final Duration unplannedAfter;
    private final Clock clock;
    private final PrintStream metrics;

    @Inject
    public SweepHandler(Pipeline pipeline) {
        this.frontier = pipeline.frontier();
        this.canonicalize = pipeline.canonicalize();
        this.planUpload = pipeline.planUpload();
        this.unplannedAfter = pipeline.unplannedAfter();
        this.clock = pipeline.clock();
        this.metrics = pipeline.metrics();
    }

    /** Returns how many jobs were sent, plus how many stranded plans were started. */
    @Override
    public Integer handleRequest(ScheduledEvent event, Context context) {
        try (LogContext.Scope log = LogContext.invocation(FunctionNames.SWEEP, context)) {
            // Stranded plans first, so a long walk of the frontier never leaves them out.
            Instant cutoff = clock.instant().minus(unplannedAfter);
            int stranded = canonicalize.planStranded(cutoff, STRANDED_PER_RUN)
                    + planUpload.resumeStranded(cutoff, STRANDED_PER_RUN);
            Frontier.SweepReport report = frontier.sweep(budget(context));
            // Both every run, zero included: no data means the sweep is not running, and the lag alarm says so.
            EmbeddedMetrics.Tally tally = new EmbeddedMetrics.Tally();
            tally.add(Metrics.FRONTIER_LAG_SECONDS, report.worstLag().toMillis() / 1000.0);
            tally.add(Metrics.STRANDED_PLANS, stranded);
            tally.publish(metrics, EmbeddedMetrics.functionName(context, FunctionNames.SWEEP), clock.instant());
            return report.sent() + stranded;
        }
    }

    /**
     * The frontier's walk stops taking sites with {@link #MARGIN} of the invocation left, to publish and return. No
     * context, or no deadline in it (a local invocation reports none as zero or less), means the default budget.
     */
    static Duration budget(Context context) {
        long left = context == null ? 0 : context.getRemainingTimeInMillis();
        if (left <= 0) {
            return Frontier.SWEEP_BUDGET;
        }
        Duration usable = Duration.ofMillis(left).minus(MARGIN);
        return usable.isNegative() ? Duration.ZERO
                : usable.compareTo(Frontier.SWEEP_BUDGET) < 0 ? usable : Frontier.SWEEP_BUDGET;
    }
}
