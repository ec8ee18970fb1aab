package io.spiderling.lambda.ingest;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.spiderling.core.pipeline.Ingest;
import io.spiderling.lambda.api.Views;
import io.spiderling.lambda.internal.HttpJson;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.UUID;

/** {@code POST /batches}: accept a batch of URLs and answer 202 with its id, or a JSON error naming the problem. */
@Named("ingest")
@Singleton
public class IngestHttpHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {

    /** Synchronous Lambda payloads stop at 6 MB; refusing earlier gives a clear error instead of a gateway one. */
    static final int MAX_BODY_BYTES = 5 * 1024 * 1024;

    private final Ingest ingest;

    @Inject
    public IngestHttpHandler(Ingest ingest) {
        this.ingest = ingest;
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        if (!"POST".equals(HttpJson.method(event)) || !"/batches".equals(HttpJson.path(event))) {
            return HttpJson.error(404, "no route for " + HttpJson.method(event) + " " + HttpJson.path(event));
        }
        byte[] body = HttpJson.body(event);
        if (body.length > MAX_BODY_BYTES) {
            return HttpJson.error(413, "body is " + body.length + " bytes; at most " + MAX_BODY_BYTES
                    + " are accepted here (use POST /batches/uploads for larger manifests)");
        }
        return switch (SubmissionParser.parseJson(body)) {
            case SubmissionParser.Parsed.Invalid invalid -> HttpJson.error(400, invalid.problem());
            case SubmissionParser.Parsed.Urls urls -> switch (ingest.submit(UUID.randomUUID().toString(), urls.urls(),
                    "http")) {
                case Ingest.Result.Accepted accepted -> HttpJson.json(202, Views.accepted(accepted));
                case Ingest.Result.Refused refused -> HttpJson.json(400, Views.refused(refused));
            };
        };
    }
}
