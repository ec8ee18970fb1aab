package io.spiderling.lambda.plan;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.core.pipeline.ingest.PlanSitemap;
import io.spiderling.core.pipeline.ingest.PlanUpload;
import io.spiderling.lambda.Pipeline;
import io.spiderling.lambda.internal.HttpJson;
import io.spiderling.lambda.internal.LogContext;
import io.spiderling.lambda.internal.RetrySoon;
import io.spiderling.lambda.internal.SqsBatches;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.io.IOException;
import org.jboss.logging.Logger;

/**
 * The plan queue: one chunk of an uploaded manifest per message ({@code {"batchId":…,"chunk":n}}), or of a read
 * sitemap's list ({@code "sitemap":…} too). A failure fails only its message, which comes back soon, with backoff
 * ({@link RetrySoon}), and plans the chunk again from its start; a message that names no chunk of a batch is logged
 * and dropped, since retrying it cannot help.
 */
@Named("plan")
@Singleton
public class PlanHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {

    private static final Logger LOG = Logger.getLogger(PlanHandler.class);

    private final PlanUpload planUpload;
    private final PlanSitemap planSitemap;
    private final RetrySoon retrySoon;

    @Inject
    public PlanHandler(Pipeline pipeline) {
        this.planUpload = pipeline.planUpload();
        this.planSitemap = pipeline.planSitemap();
        this.retrySoon = pipeline.planRetries();
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        try (LogContext.Scope log = LogContext.invocation(FunctionNames.PLAN, context)) {
            return SqsBatches.process(event, message -> {
                JsonNode body;
                try {
                    // SQS never delivers a null body, but a test event or a replay tool might: unreadable too
                    body = message.getBody() == null ? null : HttpJson.JSON.readTree(message.getBody());
                } catch (IOException e) {
                    LOG.errorf("dropping unreadable plan message %s: %s", message.getMessageId(), e.getMessage());
                    return;
                }
                if (body == null || !body.path("batchId").isTextual() || !body.path("chunk").canConvertToInt()) {
                    LOG.errorf("dropping plan message %s without batchId and chunk", message.getMessageId());
                    return;
                }
                try (LogContext.Scope item = LogContext.item(body.get("batchId").asText(), null, null)) {
                    if (body.path("sitemap").isTextual()) {
                        planSitemap.onChunk(body.get("batchId").asText(), body.get("sitemap").asText(),
                                body.get("chunk").asInt());
                    } else {
                        planUpload.onChunk(body.get("batchId").asText(), body.get("chunk").asInt());
                    }
                } catch (IllegalArgumentException noSuchChunk) {
                    LOG.errorf("dropping plan message %s: %s", message.getMessageId(), noSuchChunk.getMessage());
                } catch (RuntimeException failed) {
                    retrySoon.after(message);
                    throw failed;
                }
            });
        }
    }
}
