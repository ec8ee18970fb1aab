package io.spiderling.lambda.sweep;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.Metrics;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.pipeline.Canonicalize;
import io.spiderling.core.pipeline.PlanUpload;
import io.spiderling.lambda.Pipeline;
import io.spiderling.lambda.internal.EmbeddedMetrics;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An EventBridge schedule (every minute): release due frontier entries of every active site and re-send jobs presumed
 * lost (fetches finishing release their own site's next entries; this catches the rest); plan manifests and uploads
 * whose S3 event never planned them; and publish the frontier's lag, which the stack alarms on.
 */
@Named("sweep")
@Singleton
public class SweepHandler implements RequestHandler<ScheduledEvent, Integer> {

    /** Stranded manifests (and uploads) planned per run; more wait for the next minute. */
    static final int STRANDED_PER_RUN = 20;

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
        Frontier.SweepReport report = frontier.sweep();
        Instant cutoff = clock.instant().minus(unplannedAfter);
        int stranded = canonicalize.planStranded(cutoff, STRANDED_PER_RUN)
                + planUpload.resumeStranded(cutoff, STRANDED_PER_RUN);
        String function = context == null || context.getFunctionName() == null ? FunctionNames.SWEEP
                : context.getFunctionName();
        metrics.println(EmbeddedMetrics.line(Metrics.NAMESPACE, Map.of(Metrics.FUNCTION_DIMENSION, function),
                List.of(new EmbeddedMetrics.Metric(Metrics.FRONTIER_LAG_SECONDS, "Seconds",
                                report.lag().toMillis() / 1000.0),
                        new EmbeddedMetrics.Metric(Metrics.STRANDED_PLANS, "Count", stranded)),
                clock.instant()));
        return report.sent() + stranded;
    }
}
