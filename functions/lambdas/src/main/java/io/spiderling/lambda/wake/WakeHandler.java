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
 * the fetch queue. A site named twice in one batch is released once. A message that names no site is logged and
 * dropped. A release that fails goes back to the queue, to be tried again after its visibility timeout, until its
 * {@link #ATTEMPTS}th delivery; then it is logged and dropped, and the site's due jobs wait for the sweep's next look at
 * it (within the sweep's period, 10 minutes by default). So the queue needs no dead-letter queue.
 */
@Named("wake")
@Singleton
public class WakeHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {

    private static final Logger LOG = Logger.getLogger(WakeHandler.class);

    /** The deliveries a wake-up gets while its release fails. */
    static final int ATTEMPTS = 3;

    private final Frontier frontier;

    @Inject
    public WakeHandler(Pipeline pipeline) {
        this(pipeline.frontier());
    }

    WakeHandler(Frontier frontier) {
        this.frontier = frontier;
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
                        int delivery = delivery(message);
                        if (delivery < ATTEMPTS) {
                            LOG.warnf(e, "could not release %s on its wake-up (delivery %d of %d); it comes back",
                                    site.value(), delivery, ATTEMPTS);
                            throw e;
                        }
                        LOG.errorf(e, "could not release %s on its wake-up (delivery %d of %d); its due jobs wait for"
                                + " the sweep's next look at the site", site.value(), delivery, ATTEMPTS);
                    }
                }
            });
        }
    }

    /** The message's delivery count (1 when the queue did not say). */
    private static int delivery(SQSEvent.SQSMessage message) {
        String count = message.getAttributes() == null ? null : message.getAttributes().get("ApproximateReceiveCount");
        try {
            return count == null ? 1 : Integer.parseInt(count);
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
