package io.spiderling.lambda.fetch;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.spiderling.aws.FetchJobCodec;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.pipeline.FetchPage;
import io.spiderling.lambda.Pipeline;
import io.spiderling.lambda.internal.SqsBatches;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The SQS FIFO fetch queue: one fetch per message, in each site's order. Every handled outcome is a success: fetched,
 * refused and parked, or ended with an error; only a storage failure fails a message, and with it the rest of its
 * site's group in this batch. No fetch starts once the invocation has less time left than a fetch can take: those
 * jobs go back to the frontier. Several jobs of one site in one invocation take their rate slots in one write.
 */
@Named("fetch")
@Singleton
public class FetchHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {

    /** Room for the writes after the GET, and for a slot wait of up to a second. */
    private static final Duration MARGIN = Duration.ofSeconds(5);

    private final FetchPage fetchPage;
    private final Duration fetchTakes;

    @Inject
    public FetchHandler(Pipeline pipeline) {
        this.fetchPage = pipeline.fetchPage();
        this.fetchTakes = pipeline.fetchTimeout().plus(MARGIN);
    }

    /** No context, or no deadline in it (a local invocation reports none as zero or less), means no limit known. */
    private boolean outOfTime(Context context) {
        if (context == null) {
            return false;
        }
        long left = context.getRemainingTimeInMillis();
        return left > 0 && left < fetchTakes.toMillis();
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        // Each body is read once: for the slots taken ahead, then for its turn. An unreadable one fails in its turn,
        // with the rest of its group.
        Map<String, FetchJob> jobs = new HashMap<>();
        for (SQSEvent.SQSMessage message : event.getRecords() == null ? List.<SQSEvent.SQSMessage>of()
                : event.getRecords()) {
            try {
                jobs.put(message.getMessageId(), FetchJobCodec.decode(message.getBody()));
            } catch (IllegalArgumentException unreadable) {
                // reported when its turn comes
            }
        }
        fetchPage.invocationHolds(List.copyOf(jobs.values()));
        try {
            return SqsBatches.process(event, message -> {
                FetchJob job = jobs.get(message.getMessageId());
                if (job == null) {
                    job = FetchJobCodec.decode(message.getBody()); // throws, naming what is wrong
                }
                if (outOfTime(context)) {
                    fetchPage.postpone(job);
                } else {
                    fetchPage.process(job);
                }
            });
        } finally {
            fetchPage.invocationDone();
        }
    }
}
