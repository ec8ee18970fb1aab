package io.spiderling.lambda.fetch;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.spiderling.aws.FetchJobCodec;
import io.spiderling.catalog.FunctionNames;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The SQS FIFO fetch queue: one fetch per message. Every handled outcome is a success: fetched, refused and parked,
 * or ended with an error; only a storage failure fails a message, and with it the rest of its site's group in this
 * batch. The jobs run in one {@link FetchPage.Invocation}: a site's up to its in-flight allowance at once, sites side
 * by side. No fetch starts once the invocation has less time left than a fetch can take: those jobs go back to the
 * frontier. An unreadable message fails, with the messages after it in its group.
 */
@Named("fetch")
@Singleton
public class FetchHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {

    private static final Logger LOG = Logger.getLogger(FetchHandler.class);

    /** Room for the writes after the GET, and for a slot wait of up to a second. */
    private static final Duration MARGIN = Duration.ofSeconds(5);

    private final FetchPage fetchPage;
    private final Duration fetchTakes;
    private final PrintStream metrics;
    private final Clock clock;

    @Inject
    public FetchHandler(Pipeline pipeline) {
        this.fetchPage = pipeline.fetchPage();
        this.fetchTakes = pipeline.fetchTimeout().plus(MARGIN);
        this.metrics = pipeline.metrics();
        this.clock = pipeline.clock();
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
        try (LogContext.Scope log = LogContext.invocation(FunctionNames.FETCH, context)) {
            FetchInvocationTelemetry telemetry = new FetchInvocationTelemetry();
            try {
                return handle(event, context, telemetry);
            } finally {
                telemetry.tally().publish(metrics, EmbeddedMetrics.functionName(context, FunctionNames.FETCH),
                        clock.instant());
            }
        }
    }

    private SQSBatchResponse handle(SQSEvent event, Context context, FetchInvocationTelemetry telemetry) {
        List<SQSEvent.SQSMessage> messages = event.getRecords() == null ? List.of() : event.getRecords();
        List<FetchJob> jobs = new ArrayList<>();
        List<String> jobMessages = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        Set<String> brokenGroups = new HashSet<>();
        for (SQSEvent.SQSMessage message : messages) {
            String group = SqsBatches.groupOf(message);
            if (brokenGroups.contains(group)) {
                failed.add(message.getMessageId());
                continue;
            }
            try {
                jobs.add(FetchJobCodec.decode(message.getBody()));
                jobMessages.add(message.getMessageId());
            } catch (IllegalArgumentException unreadable) {
                LOG.errorf("fetch message %s is unreadable: %s", message.getMessageId(), unreadable.getMessage());
                brokenGroups.add(group);
                failed.add(message.getMessageId());
            }
        }
        try (FetchPage.Invocation invocation = fetchPage.invocation(telemetry)) {
            List<FetchPage.Result> results = invocation.processAll(jobs, () -> outOfTime(context));
            for (int i = 0; i < results.size(); i++) {
                switch (results.get(i)) {
                    case FetchPage.Result.Handled handled -> { }
                    case FetchPage.Result.Failed f -> {
                        try (LogContext.Scope job = LogContext.job(f.job())) {
                            LOG.errorf(f.error(), "fetch of %s failed; its message will be retried",
                                    f.job().url().value());
                        }
                        failed.add(jobMessages.get(i));
                    }
                    case FetchPage.Result.NotStarted n -> failed.add(jobMessages.get(i));
                }
            }
        }
        return SqsBatches.failures(failed);
    }
}
