package io.spiderling.lambda.ingest;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.batch.Rejection;
import io.spiderling.core.content.Hashing;
import io.spiderling.core.pipeline.ingest.Ingest;
import io.spiderling.lambda.Pipeline;
import io.spiderling.lambda.internal.LogContext;
import io.spiderling.lambda.internal.SqsBatches;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * The SQS ingest queue: each message (one URL, a list, or {@code {"urls":[…]}}) becomes a batch whose id derives from
 * the message id, so a redelivered message lands on the same batch. A message that cannot be accepted, or that the
 * {@code sqs} client's quota has no room for, is recorded as a refused batch (the quota's reason and reset in its
 * rejection, its callback told) and acknowledged: it is never retried forever.
 */
@Named("ingest-queue")
@Singleton
public class IngestQueueHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {

    private static final int MAX_ECHOED_BODY = 200;

    /**
     * The client batches from the queue belong to: whoever may send to the queue is trusted by IAM, and reads their
     * batches (and signs their callbacks, with this client's secret in the clients file) as this client (ADR 10).
     */
    public static final String CLIENT = "sqs";

    private final Ingest ingest;

    @Inject
    public IngestQueueHandler(Pipeline pipeline) {
        this.ingest = pipeline.ingest();
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        try (LogContext.Scope log = LogContext.invocation(FunctionNames.INGEST_QUEUE, context)) {
            return SqsBatches.process(event, message -> {
                String batchId = batchIdFor(message.getMessageId());
                try (LogContext.Scope item = LogContext.item(batchId, null, null)) {
                    submit(batchId, message);
                }
            });
        }
    }

    /** The batch a queue message becomes: stable for the message, so a sender can look its batch up later. */
    public static String batchIdFor(String messageId) {
        return "q-" + Hashing.sha256Hex(messageId).substring(0, 32);
    }

    private static String abbreviate(String body) {
        String b = body == null ? "" : body;
        return b.length() <= MAX_ECHOED_BODY ? b : b.substring(0, MAX_ECHOED_BODY) + "…";
    }

    private void submit(String batchId, SQSEvent.SQSMessage message) {
        switch (SubmissionParser.parseMessage(message.getBody())) {
            case SubmissionParser.Parsed.Invalid invalid -> ingest.recordRefused(batchId, CLIENT, BatchSource.SQS,
                    List.of(new Rejection(abbreviate(message.getBody()), invalid.problem())));
            case SubmissionParser.Parsed.Urls urls -> {
                switch (ingest.submit(batchId, CLIENT, urls.submission(), BatchSource.SQS)) {
                    case Ingest.Result.Refused refused -> ingest.recordRefused(batchId, CLIENT, BatchSource.SQS,
                            refused.rejected().isEmpty()
                                    ? List.of(new Rejection(abbreviate(message.getBody()), refused.reason()))
                                    : refused.rejected());
                    // Refused whole, with the quota's reason, and its callback told: never retried.
                    case Ingest.Result.OverQuota over -> ingest.recordRefused(batchId, CLIENT, BatchSource.SQS,
                            List.of(new Rejection(abbreviate(message.getBody()), over.quota().reason())),
                            urls.submission().options());
                    case Ingest.Result.Accepted accepted -> { }
                    case Ingest.Result.Conflict conflict -> { }
                }
            }
        }
    }
}
