package io.spiderling.lambda.notify;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.spiderling.aws.SqsNotifyQueue;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.core.pipeline.batch.NotifyBatch;
import io.spiderling.lambda.Pipeline;
import io.spiderling.lambda.internal.LogContext;
import io.spiderling.lambda.internal.SqsBatches;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/**
 * The notify queue: one callback delivery attempt per message. Retries go back to the queue as new delayed messages
 * (the backoff is the stage's, not the queue's), so a message fails only when the stores do; an unreadable one is
 * logged and dropped.
 */
@Named("notify")
@Singleton
public class NotifyHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {

    private static final Logger LOG = Logger.getLogger(NotifyHandler.class);

    private final NotifyBatch notify;

    @Inject
    public NotifyHandler(Pipeline pipeline) {
        this.notify = pipeline.notifyBatch();
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        try (LogContext.Scope log = LogContext.invocation(FunctionNames.NOTIFY, context)) {
            return SqsBatches.process(event, message -> SqsNotifyQueue.decode(message.getBody()).ifPresentOrElse(
                    m -> {
                        try (LogContext.Scope item = LogContext.item(m.batchId(), null, null)) {
                            LOG.infof("notify %s %s #%d attempt %d: %s", m.batchId(), m.kind().wireName(),
                                    m.sequence(), m.attempt(), notify.handle(m));
                        }
                    },
                    () -> LOG.errorf("dropping unreadable notify message %s", message.getMessageId())));
        }
    }
}
