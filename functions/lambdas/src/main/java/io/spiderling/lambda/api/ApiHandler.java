package io.spiderling.lambda.api;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.spiderling.core.pipeline.Queries;
import io.spiderling.lambda.internal.HttpJson;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

/** The read API: {@code GET /batches/{id}} and {@code GET /urls?url=…}. */
@Named("api")
@Singleton
public class ApiHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {

    private static final String BATCHES = "/batches/";

    private final Queries queries;

    @Inject
    public ApiHandler(Queries queries) {
        this.queries = queries;
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        String method = HttpJson.method(event);
        String path = HttpJson.path(event);
        if (!"GET".equals(method)) {
            return HttpJson.error(405, method + " is not supported on " + path);
        }
        if (path.startsWith(BATCHES) && path.length() > BATCHES.length()
                && path.indexOf('/', BATCHES.length()) < 0) {
            String id = path.substring(BATCHES.length());
            return queries.batch(id)
                    .map(status -> HttpJson.json(200, Views.batch(status)))
                    .orElseGet(() -> HttpJson.error(404, "no batch " + id));
        }
        if ("/urls".equals(path)) {
            return HttpJson.query(event, "url")
                    .map(url -> switch (queries.url(url)) {
                        case Queries.UrlLookup.Found found -> HttpJson.json(200, Views.url(found));
                        case Queries.UrlLookup.NotFound nf -> HttpJson.json(404, HttpJson.JSON.createObjectNode()
                                .put("error", "not fetched yet").put("url", nf.url().value()));
                        case Queries.UrlLookup.Invalid invalid -> HttpJson.error(400, "invalid url: " + invalid.reason());
                    })
                    .orElseGet(() -> HttpJson.error(400, "missing query parameter \"url\""));
        }
        return HttpJson.error(404, "no route for GET " + path);
    }
}
