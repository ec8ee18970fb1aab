package io.spiderling.lambda.fetch;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.spiderling.aws.FetchJobCodec;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.Metrics;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.pipeline.fetch.FetchPage;
import io.spiderling.lambda.Pipeline;
import io.spiderling.lambda.internal.EmbeddedMetrics;
import io.spiderling.lambda.internal.LogContext;
import io.spiderling.lambda.internal.SqsBatches;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.io.PrintStream;
import java.time.Clock;
import org.jboss.logging.Logger;

/**
 * The fetch queue's dead-letter queue: a job the queue gave up on (its handler failed maxReceiveCount times) ends as
 * {@code failed} with detail {@code dlq}, with every batch waiting on it, and its frontier place is freed, so no batch
 * waits forever for it. A message that is not a fetch job is logged and dropped.
 */
@Named("fetch-dlq")
@Singleton
public class FetchDeadLetterHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {

    private static final Logger LOG = Logger.getLogger(FetchDeadLetterHandler.class);

    private final FetchPage fetchPage;
    private final PrintStream metrics;
    private final Clock clock;

    @Inject
    public FetchDeadLetterHandler(Pipeline pipeline) {
        this.fetchPage = pipeline.fetchPage();
        this.metrics = pipeline.metrics();
        this.clock = pipeline.clock();
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        EmbeddedMetrics.Tally tally = new EmbeddedMetrics.Tally();
        try (LogContext.Scope log = LogContext.invocation(FunctionNames.FETCH_DLQ, context)) {
            return SqsBatches.process(event, message -> {
                tally.add(Metrics.DLQ_SENDS, 1);
                FetchJob job;
                try {
                    job = FetchJobCodec.decode(message.getBody());
                } catch (IllegalArgumentException e) {
                    LOG.errorf("dropping dead-lettered message %s: %s", message.getMessageId(), e.getMessage());
                    return;
                }
                try (LogContext.Scope item = LogContext.job(job)) {
                    LOG.warnf("fetch job for %s (batch %s) was dead-lettered", job.url().value(), job.batchId());
                    fetchPage.deadLettered(job);
                }
            });
        } finally {
            tally.publish(metrics, EmbeddedMetrics.functionName(context, FunctionNames.FETCH_DLQ), clock.instant());
        }
    }
}
