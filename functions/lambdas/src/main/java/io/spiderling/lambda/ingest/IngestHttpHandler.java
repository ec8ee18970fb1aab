package io.spiderling.lambda.ingest;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.Operation;
import io.spiderling.catalog.Routes;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.content.Hashing;
import io.spiderling.core.pipeline.ingest.Ingest;
import io.spiderling.lambda.Pipeline;
import io.spiderling.lambda.api.ApiAuth;
import io.spiderling.lambda.api.Views;
import io.spiderling.lambda.internal.HttpJson;
import io.spiderling.lambda.internal.LogContext;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * {@code POST /batches}: accept a batch of URLs and answer 202 with its id, or a JSON error naming the problem. The
 * {@code Idempotency-Key} header makes retries safe: the same key and body return the same batch; the same key with
 * a different body is refused with 422.
 *
 * <p>{@code POST /batches/uploads} opens a batch whose manifest the client PUTs to S3 itself, for inputs larger than a
 * request body: it answers 201 with the batch id and a presigned upload URL.
 */
@Named("ingest")
@Singleton
public class IngestHttpHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {

    /** Synchronous Lambda payloads stop at 6 MB; refusing earlier gives a clear error instead of a gateway one. */
    static final int MAX_BODY_BYTES = 5 * 1024 * 1024;

    private static final Pattern IDEMPOTENCY_KEY = Pattern.compile("[\\x20-\\x7E]{1,255}");

    private final Ingest ingest;
    private final ApiAuth auth;

    @Inject
    public IngestHttpHandler(Pipeline pipeline) {
        this.ingest = pipeline.ingest();
        this.auth = pipeline.apiAuth();
    }

    /**
     * A new batch gets a random id. With an Idempotency-Key the id derives from the client and the key, so a retried
     * request finds the batch its first attempt created, and two clients' keys never meet.
     */
    static String batchIdFor(String client, Optional<String> idempotencyKey) {
        return idempotencyKey.map(key -> "k-" + Hashing.sha256Hex(client + "\u0000" + key).substring(0, 32))
                .orElseGet(() -> UUID.randomUUID().toString());
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        try (LogContext.Scope log = LogContext.invocation(FunctionNames.INGEST, context)) {
            return switch (auth.authenticate(event)) {
                case ApiAuth.Outcome.Refused refused -> ApiAuth.unauthorized(refused);
                case ApiAuth.Outcome.Client client -> handle(event, client.id());
            };
        }
    }

    private APIGatewayV2HTTPResponse handle(APIGatewayV2HTTPEvent event, String client) {
        String path = HttpJson.path(event);
        Optional<Operation> operation = Routes.match(HttpJson.method(event), path)
                .filter(match -> match.route().function().equals(FunctionNames.INGEST)).map(Routes.Match::operation);
        if (operation.isEmpty()) {
            return HttpJson.error(404, "no route for " + HttpJson.method(event) + " " + path);
        }
        Optional<byte[]> read = HttpJson.body(event);
        if (read.isEmpty()) {
            return HttpJson.notBase64();
        }
        byte[] body = read.get();
        if (body.length > MAX_BODY_BYTES) {
            return HttpJson.error(413, "body is " + body.length + " bytes; at most " + MAX_BODY_BYTES
                    + " are accepted here (use POST /batches/uploads for larger manifests)");
        }
        Optional<String> idempotencyKey = HttpJson.header(event, "idempotency-key");
        if (idempotencyKey.isPresent() && !IDEMPOTENCY_KEY.matcher(idempotencyKey.get()).matches()) {
            return HttpJson.error(400, "Idempotency-Key must be 1 to 255 printable ASCII characters");
        }
        return operation.get() == Operation.START_UPLOAD ? upload(body, client, idempotencyKey)
                : submit(body, client, idempotencyKey);
    }

    private APIGatewayV2HTTPResponse upload(byte[] body, String client, Optional<String> idempotencyKey) {
        return switch (SubmissionParser.parseUpload(body)) {
            case SubmissionParser.ParsedUpload.Invalid invalid -> HttpJson.error(400, invalid.problem());
            case SubmissionParser.ParsedUpload.Request request -> switch (ingest.startUpload(
                    batchIdFor(client, idempotencyKey), client, request.format(), BatchSource.UPLOAD,
                    request.options())) {
                case Ingest.UploadResult.Started started -> HttpJson.json(201, Views.uploadStarted(started));
                case Ingest.UploadResult.Refused refused -> HttpJson.error(400, refused.reason());
                case Ingest.UploadResult.Conflict conflict -> HttpJson.error(422,
                        "Idempotency-Key was already used for a different request");
                case Ingest.UploadResult.OverQuota over -> HttpJson.overQuota(over.quota());
            };
        };
    }

    private APIGatewayV2HTTPResponse submit(byte[] body, String client, Optional<String> idempotencyKey) {
        return switch (SubmissionParser.parseJson(body)) {
            case SubmissionParser.Parsed.Invalid invalid -> HttpJson.error(400, invalid.problem());
            case SubmissionParser.Parsed.Urls urls -> switch (ingest.submit(batchIdFor(client, idempotencyKey),
                    client, urls.submission(), BatchSource.HTTP)) {
                case Ingest.Result.Accepted accepted -> HttpJson.json(202, Views.accepted(accepted));
                case Ingest.Result.Refused refused -> HttpJson.json(400, Views.refused(refused));
                case Ingest.Result.Conflict conflict -> HttpJson.error(422,
                        "Idempotency-Key was already used for a different request");
                case Ingest.Result.OverQuota over -> HttpJson.overQuota(over.quota());
            };
        };
    }
}
