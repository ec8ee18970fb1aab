package io.spiderling.lambda.wake;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.spiderling.aws.SqsWakeQueue;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.url.SiteKey;
import io.spiderling.lambda.Pipeline;
import io.spiderling.lambda.internal.LogContext;
import io.spiderling.lambda.internal.SqsBatches;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.HashSet;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The wake queue: each message names a site whose frontier entries fell due about now; their release sends them to
 * the fetch queue. A site named twice in one batch is released once. No message ever fails: one that names no site,
 * or whose release fails, is logged and dropped, since a lost wake-up only waits for the minute's sweep (so the queue
 * needs no dead-letter queue).
 */
@Named("wake")
@Singleton
public class WakeHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {

    private static final Logger LOG = Logger.getLogger(WakeHandler.class);

    private final Frontier frontier;

    @Inject
    public WakeHandler(Pipeline pipeline) {
        this.frontier = pipeline.frontier();
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        try (LogContext.Scope log = LogContext.invocation(FunctionNames.WAKE, context)) {
            Set<SiteKey> released = new HashSet<>();
            return SqsBatches.process(event, message -> {
                SiteKey site;
                try {
                    site = SqsWakeQueue.site(message.getBody());
                } catch (IllegalArgumentException e) {
                    LOG.errorf("dropping wake-up message %s: %s", message.getMessageId(), e.getMessage());
                    return;
                }
                if (released.add(site)) {
                    try (LogContext.Scope item = LogContext.item(null, null, site.value())) {
                        frontier.release(site);
                    } catch (RuntimeException e) {
                        // Never failed back to the queue: the minute's sweep releases the site's due jobs anyway.
                        LOG.warnf(e, "could not release %s on its wake-up; the sweep will", site.value());
                    }
                }
            });
        }
    }
}
