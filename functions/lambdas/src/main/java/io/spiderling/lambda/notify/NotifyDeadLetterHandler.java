package io.spiderling.lambda.notify;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.spiderling.aws.SqsNotifyQueue;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.Metrics;
import io.spiderling.core.pipeline.batch.NotifyBatch;
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
 * The notify queue's dead-letter queue: a completion delivery the queue gave up on is recorded as the batch's callback
 * failure, so it shows in {@code GET /batches/{id}}; its sample event is {@code events/sqs-notify-dlq.json}.
 */
@Named("notify-dlq")
@Singleton
public class NotifyDeadLetterHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {

    private static final Logger LOG = Logger.getLogger(NotifyDeadLetterHandler.class);

    private final NotifyBatch notify;
    private final PrintStream metrics;
    private final Clock clock;

    @Inject
    public NotifyDeadLetterHandler(Pipeline pipeline) {
        this.notify = pipeline.notifyBatch();
        this.metrics = pipeline.metrics();
        this.clock = pipeline.clock();
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        EmbeddedMetrics.Tally tally = new EmbeddedMetrics.Tally();
        try (LogContext.Scope log = LogContext.invocation(FunctionNames.NOTIFY_DLQ, context)) {
            return SqsBatches.process(event, message -> {
                tally.add(Metrics.DLQ_SENDS, 1);
                SqsNotifyQueue.decode(message.getBody()).ifPresentOrElse(m -> {
                    try (LogContext.Scope item = LogContext.item(m.batchId(), null, null)) {
                        LOG.warnf("notify %s %s was dead-lettered: %s", m.batchId(), m.kind().wireName(),
                                notify.deadLettered(m));
                    }
                }, () -> LOG.errorf("dropping unreadable dead-lettered notify message %s", message.getMessageId()));
            });
        } finally {
            tally.publish(metrics, EmbeddedMetrics.functionName(context, FunctionNames.NOTIFY_DLQ),
                    clock.instant());
        }
    }
}
