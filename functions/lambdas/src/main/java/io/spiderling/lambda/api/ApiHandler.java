package io.spiderling.lambda.api;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.pipeline.CancelBatch;
import io.spiderling.core.pipeline.Queries;
import io.spiderling.lambda.internal.HttpJson;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The read API and batch control: {@code GET /batches/{id}}, {@code GET /batches/{id}/urls}, {@code DELETE
 * /batches/{id}} and {@code GET /urls?url=…}.
 */
@Named("api")
@Singleton
public class ApiHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {

    private static final Pattern BATCH = Pattern.compile("/batches/([^/]+)");
    private static final Pattern BATCH_URLS = Pattern.compile("/batches/([^/]+)/urls");
    private static final int DEFAULT_PAGE = 100;

    private final Queries queries;
    private final CancelBatch cancel;

    @Inject
    public ApiHandler(Queries queries, CancelBatch cancel) {
        this.queries = queries;
        this.cancel = cancel;
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        String method = HttpJson.method(event);
        String path = HttpJson.path(event);
        Matcher batch = BATCH.matcher(path);
        Matcher batchUrls = BATCH_URLS.matcher(path);
        return switch (method) {
            case "GET" -> {
                if (batch.matches()) {
                    yield batchStatus(batch.group(1));
                } else if (batchUrls.matches()) {
                    yield batchUrls(batchUrls.group(1), event);
                } else if ("/urls".equals(path)) {
                    yield url(event);
                }
                yield HttpJson.error(404, "no route for GET " + path);
            }
            case "DELETE" -> batch.matches() ? cancel(batch.group(1))
                    : HttpJson.error(404, "no route for DELETE " + path);
            default -> HttpJson.error(405, method + " is not supported on " + path);
        };
    }

    private APIGatewayV2HTTPResponse batchStatus(String id) {
        return queries.batch(id)
                .map(status -> HttpJson.json(200, Views.batch(status)))
                .orElseGet(() -> HttpJson.error(404, "no batch " + id));
    }

    private APIGatewayV2HTTPResponse batchUrls(String id, APIGatewayV2HTTPEvent event) {
        Optional<ItemState> state;
        int limit;
        try {
            state = HttpJson.query(event, "state").map(ItemState::fromWireName);
            limit = HttpJson.query(event, "limit").map(Integer::parseInt).orElse(DEFAULT_PAGE);
            return queries.items(id, state, HttpJson.query(event, "cursor"), limit)
                    .map(page -> HttpJson.json(200, Views.items(id, page)))
                    .orElseGet(() -> HttpJson.error(404, "no batch " + id));
        } catch (NumberFormatException e) {
            return HttpJson.error(400, "limit must be a number");
        } catch (IllegalArgumentException e) {
            return HttpJson.error(400, e.getMessage());
        }
    }

    private APIGatewayV2HTTPResponse cancel(String id) {
        return switch (cancel.cancel(id)) {
            case CancelBatch.Result.Cancelled c -> HttpJson.json(202, Views.batch(c.status()));
            case CancelBatch.Result.AlreadyComplete done -> HttpJson.json(409, Views.batch(done.status())
                    .put("error", "batch " + id + " is already complete"));
            case CancelBatch.Result.NotFound nf -> HttpJson.error(404, "no batch " + id);
        };
    }

    private APIGatewayV2HTTPResponse url(APIGatewayV2HTTPEvent event) {
        return HttpJson.query(event, "url")
                .map(url -> switch (queries.url(url)) {
                    case Queries.UrlLookup.Found found -> HttpJson.json(200, Views.url(found));
                    case Queries.UrlLookup.NotFound nf -> HttpJson.json(404, HttpJson.JSON.createObjectNode()
                            .put("error", "not fetched yet").put("url", nf.url().value()));
                    case Queries.UrlLookup.Invalid invalid -> HttpJson.error(400, "invalid url: " + invalid.reason());
                })
                .orElseGet(() -> HttpJson.error(400, "missing query parameter \"url\""));
    }
}
