package io.spiderling.lambda.api;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.Routes;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.pipeline.batch.BatchWaiting;
import io.spiderling.core.pipeline.batch.CancelBatch;
import io.spiderling.core.pipeline.query.Queries;
import io.spiderling.core.pipeline.query.UpdateFields;
import io.spiderling.core.signing.KeyDirectory;
import io.spiderling.lambda.Pipeline;
import io.spiderling.lambda.internal.HttpJson;
import io.spiderling.lambda.internal.LogContext;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The read API and batch control, every route behind {@link ApiAuth}:
 * <ul>
 *   <li>{@code GET /batches/{id}}, {@code GET /batches/{id}/urls}, {@code DELETE /batches/{id}}: the caller's own
 *       batches only; another client's batch is a 404, exactly as a missing one;</li>
 *   <li>{@code GET /urls?url=…}, {@code POST /urls/batchGet}, {@code GET /urls/content?url=…},
 *       {@code GET /urls/inlinks?url=…}, {@code PATCH /urls/fields?url=…}: the deployment's shared metadata store;</li>
 *   <li>{@code /admin/...}: the operator controls, admins only ({@link AdminRoutes}).</li>
 * </ul>
 */
@Named("api")
@Singleton
public class ApiHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {

    /** How long a presigned content link stays valid. */
    public static final Duration CONTENT_LINK_TTL = Duration.ofMinutes(5);

    private static final int DEFAULT_PAGE = 100;
    /** A batchGet body holds at most 100 URLs of at most 2,048 characters, so this is generous. */
    private static final int MAX_BATCH_GET_BYTES = 512 * 1024;
    private static final int MAX_FIELDS_BODY_BYTES = 256 * 1024;

    private final Queries queries;
    private final BatchWaiting waiting;
    private final CancelBatch cancel;
    private final UpdateFields fields;
    private final ApiAuth auth;
    private final Clock clock;
    private final Optional<KeyDirectory> directory;
    private final AdminRoutes admin;

    @Inject
    public ApiHandler(Pipeline pipeline) {
        this.queries = pipeline.queries();
        this.waiting = pipeline.waiting();
        this.cancel = pipeline.cancel();
        this.fields = pipeline.updateFields();
        this.auth = pipeline.apiAuth();
        this.clock = pipeline.clock();
        this.directory = pipeline.keyDirectory();
        this.admin = new AdminRoutes(pipeline.admins(), pipeline.fetchSwitch(), pipeline.optOuts(), pipeline.quotas(),
                pipeline.controlCache());
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        try (LogContext.Scope log = LogContext.invocation(FunctionNames.API, context)) {
            if (Routes.match(HttpJson.method(event), HttpJson.path(event))
                    .filter(match -> match.operation().isPublic()).isPresent()) {
                return keyDirectory(event);
            }
            return switch (auth.authenticate(event)) {
                case ApiAuth.Outcome.Refused refused -> ApiAuth.unauthorized(refused);
                case ApiAuth.Outcome.Client client -> route(event, client.id());
            };
        }
    }

    /** Routes by the one route table ({@link Routes}); a route another function serves is not found here. */
    private APIGatewayV2HTTPResponse route(APIGatewayV2HTTPEvent event, String client) {
        String method = HttpJson.method(event);
        String path = HttpJson.path(event);
        return Routes.match(method, path).filter(match -> match.route().function().equals(FunctionNames.API))
                .map(match -> switch (match.operation()) {
            case BATCH_STATUS -> batchStatus(match.parameter("id"), client);
            case BATCH_URLS -> batchUrls(match.parameter("id"), client, event);
            case CANCEL_BATCH -> cancel(match.parameter("id"), client);
            case GET_URL -> url(event);
            case BATCH_GET_URLS -> batchGet(event);
            case URL_CONTENT -> content(event);
            case URL_MARKDOWN -> markdown(event);
            case URL_INLINKS -> inlinks(event);
            case PATCH_URL_FIELDS -> patchFields(event);
            case KEY_DIRECTORY -> keyDirectory(event);
            case FETCHING_STATUS, SET_FETCHING, LIST_OPT_OUTS, ADD_OPT_OUT, REMOVE_OPT_OUT, QUOTA_STATUS, SET_QUOTA ->
                    admin.handle(match, event, client);
            case SUBMIT_BATCH, START_UPLOAD -> throw new IllegalStateException(match.operation() + " is ingest's");
        }).orElseGet(() -> HttpJson.error(404, "no route for " + method + " " + path));
    }

    /**
     * The Web Bot Auth key directory, with its media type, signed for the authority it was asked at (the Host the
     * caller used, which is what a site's client signs against): a 404 while signing is off.
     */
    private APIGatewayV2HTTPResponse keyDirectory(APIGatewayV2HTTPEvent event) {
        if (directory.isEmpty()) {
            return HttpJson.error(404, "request signing is off in this deployment");
        }
        String host = HttpJson.header(event, "host").orElseGet(() -> event.getRequestContext().getDomainName());
        KeyDirectory.Response response = directory.get().response(host.toLowerCase(java.util.Locale.ROOT),
                clock.instant());
        return APIGatewayV2HTTPResponse.builder().withStatusCode(200).withHeaders(response.headers())
                .withBody(response.body()).build();
    }

    private APIGatewayV2HTTPResponse batchStatus(String id, String client) {
        return queries.batch(id, client)
                .map(status -> HttpJson.json(200, Views.waiting(Views.batch(status), waiting.of(status))))
                .orElseGet(() -> HttpJson.error(404, "no batch " + id));
    }

    private APIGatewayV2HTTPResponse batchUrls(String id, String client, APIGatewayV2HTTPEvent event) {
        Optional<ItemState> state;
        int limit;
        try {
            state = HttpJson.query(event, "state").map(ItemState::fromWireName);
            limit = HttpJson.query(event, "limit").map(Integer::parseInt).orElse(DEFAULT_PAGE);
            return queries.items(id, client, state, HttpJson.query(event, "cursor"), limit)
                    .map(page -> HttpJson.json(200, Views.items(id, page)))
                    .orElseGet(() -> HttpJson.error(404, "no batch " + id));
        } catch (NumberFormatException e) {
            return HttpJson.error(400, "limit must be a number");
        } catch (IllegalArgumentException e) {
            return HttpJson.error(400, e.getMessage());
        }
    }

    private APIGatewayV2HTTPResponse cancel(String id, String client) {
        if (queries.batch(id, client).isEmpty()) {
            return HttpJson.error(404, "no batch " + id);
        }
        return switch (cancel.cancel(id)) {
            case CancelBatch.Result.Cancelled c -> HttpJson.json(202, Views.batch(c.status()));
            case CancelBatch.Result.AlreadyComplete done -> HttpJson.json(409, Views.batch(done.status())
                    .put("error", "batch " + id + " is already complete"));
            case CancelBatch.Result.NotFound nf -> HttpJson.error(404, "no batch " + id);
        };
    }

    private APIGatewayV2HTTPResponse url(APIGatewayV2HTTPEvent event) {
        return HttpJson.query(event, "url")
                .map(url -> lookup(queries.url(url), 200))
                .orElseGet(() -> HttpJson.error(400, "missing query parameter \"url\""));
    }

    private APIGatewayV2HTTPResponse lookup(Queries.UrlLookup lookup, int okStatus) {
        return switch (lookup) {
            case Queries.UrlLookup.Found found -> HttpJson.json(okStatus, view(found));
            case Queries.UrlLookup.NotFound nf -> HttpJson.json(404, HttpJson.JSON.createObjectNode()
                    .put("error", "not fetched yet").put("url", nf.url().value()));
            case Queries.UrlLookup.Invalid invalid -> HttpJson.error(400, "invalid url: " + invalid.reason());
        };
    }

    /**
     * {@code {"urls":[…]}}, at most 100: answers {@code {"results":[…]}} in the same order, each the record as
     * {@code GET /urls} shows it, or an entry with {@code error} and {@code status} (404 unknown, 400 invalid).
     */
    private APIGatewayV2HTTPResponse batchGet(APIGatewayV2HTTPEvent event) {
        Optional<byte[]> read = HttpJson.body(event);
        if (read.isEmpty()) {
            return HttpJson.notBase64();
        }
        byte[] body = read.get();
        if (body.length > MAX_BATCH_GET_BYTES) {
            return HttpJson.error(413, "body over " + MAX_BATCH_GET_BYTES + " bytes");
        }
        List<String> raws = new ArrayList<>();
        try {
            JsonNode urls = HttpJson.JSON.readTree(body).path("urls");
            if (!urls.isArray()) {
                return HttpJson.error(400, "body must be {\"urls\":[…]}");
            }
            for (JsonNode url : urls) {
                if (!url.isTextual()) {
                    return HttpJson.error(400, "every url must be a string");
                }
                raws.add(url.asText());
            }
        } catch (IOException e) {
            return HttpJson.error(400, "body is not JSON: " + firstLine(e.getMessage()));
        }
        if (raws.isEmpty() || raws.size() > Queries.MAX_BATCH_GET) {
            return HttpJson.error(400, "urls must hold 1 to " + Queries.MAX_BATCH_GET + " URLs, not " + raws.size());
        }
        ObjectNode node = HttpJson.JSON.createObjectNode();
        ArrayNode results = node.putArray("results");
        List<Queries.UrlLookup> lookups = queries.urls(raws);
        for (int i = 0; i < raws.size(); i++) {
            results.add(switch (lookups.get(i)) {
                case Queries.UrlLookup.Found found -> view(found);
                case Queries.UrlLookup.NotFound nf -> HttpJson.JSON.createObjectNode().put("url", nf.url().value())
                        .put("status", 404).put("error", "not fetched yet");
                case Queries.UrlLookup.Invalid invalid -> HttpJson.JSON.createObjectNode().put("url", raws.get(i))
                        .put("status", 400).put("error", "invalid url: " + invalid.reason());
            });
        }
        return HttpJson.json(200, node);
    }

    private ObjectNode view(Queries.UrlLookup.Found found) {
        return Views.url(found, queries.directives(found.record()));
    }

    private APIGatewayV2HTTPResponse content(APIGatewayV2HTTPEvent event) {
        Optional<String> url = HttpJson.query(event, "url");
        if (url.isEmpty()) {
            return HttpJson.error(400, "missing query parameter \"url\"");
        }
        return switch (queries.content(url.get(), CONTENT_LINK_TTL, clock.instant())) {
            case Queries.ContentLink.Link link -> HttpJson.json(200, HttpJson.JSON.createObjectNode()
                    .put("url", link.resolvedUrl())
                    .put("contentUrl", link.uri().toString())
                    .put("method", "GET")
                    .put("expiresAt", link.expiresAt().toString())
                    .put("contentSha256", link.contentSha256()));
            case Queries.ContentLink.NoContent none -> HttpJson.json(404, HttpJson.JSON.createObjectNode()
                    .put("error", "no stored content").put("url", none.url().value()));
            case Queries.ContentLink.NotFound nf -> HttpJson.json(404, HttpJson.JSON.createObjectNode()
                    .put("error", "not fetched yet").put("url", nf.url().value()));
            case Queries.ContentLink.Invalid invalid -> HttpJson.error(400, "invalid url: " + invalid.reason());
        };
    }

    private APIGatewayV2HTTPResponse markdown(APIGatewayV2HTTPEvent event) {
        Optional<String> url = HttpJson.query(event, "url");
        if (url.isEmpty()) {
            return HttpJson.error(400, "missing query parameter \"url\"");
        }
        return switch (queries.markdown(url.get(), CONTENT_LINK_TTL, clock.instant())) {
            case Queries.MarkdownLink.Link link -> HttpJson.json(200, Views.markdown(link.markdown(),
                    HttpJson.JSON.createObjectNode().put("url", link.resolvedUrl())
                            .put("markdownUrl", link.uri().toString()).put("method", "GET")
                            .put("expiresAt", link.expiresAt().toString())));
            case Queries.MarkdownLink.NoMarkdown none -> HttpJson.json(404, HttpJson.JSON.createObjectNode()
                    .put("error", "no Markdown of its current content (ask with \"markdown\": true; a page with no"
                            + " main content has none)").put("url", none.url().value()));
            case Queries.MarkdownLink.NotFound nf -> HttpJson.json(404, HttpJson.JSON.createObjectNode()
                    .put("error", "not fetched yet").put("url", nf.url().value()));
            case Queries.MarkdownLink.Invalid invalid -> HttpJson.error(400, "invalid url: " + invalid.reason());
        };
    }

    private APIGatewayV2HTTPResponse inlinks(APIGatewayV2HTTPEvent event) {
        Optional<String> url = HttpJson.query(event, "url");
        if (url.isEmpty()) {
            return HttpJson.error(400, "missing query parameter \"url\"");
        }
        try {
            int limit = HttpJson.query(event, "limit").map(Integer::parseInt).orElse(DEFAULT_PAGE);
            return switch (queries.inlinks(url.get(), HttpJson.query(event, "cursor"), limit)) {
                case Queries.Inlinks.Page page -> {
                    ObjectNode node = HttpJson.JSON.createObjectNode().put("url", page.url().value());
                    ArrayNode inlinks = node.putArray("inlinks");
                    page.page().inlinks().forEach(l -> inlinks.addObject().put("url", l.sourceUrl())
                            .put("seenAt", l.seenAt().toString()));
                    page.page().nextCursor().ifPresentOrElse(c -> node.put("cursor", c), () -> node.putNull("cursor"));
                    yield HttpJson.json(200, node);
                }
                case Queries.Inlinks.Invalid invalid -> HttpJson.error(400, "invalid url: " + invalid.reason());
                case Queries.Inlinks.Disabled disabled -> HttpJson.error(404,
                        "this deployment does not index links (spiderling.links.enabled=false)");
            };
        } catch (NumberFormatException e) {
            return HttpJson.error(400, "limit must be a number");
        } catch (IllegalArgumentException e) {
            return HttpJson.error(400, e.getMessage());
        }
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }

    /**
     * The body is a JSON object of fields, as in a JSON merge patch: each member adds or replaces that field with its
     * value (any JSON), and {@code null} removes it. Answers the URL's fields after the change.
     */
    private APIGatewayV2HTTPResponse patchFields(APIGatewayV2HTTPEvent event) {
        Optional<String> url = HttpJson.query(event, "url");
        if (url.isEmpty()) {
            return HttpJson.error(400, "missing query parameter \"url\"");
        }
        Optional<byte[]> read = HttpJson.body(event);
        if (read.isEmpty()) {
            return HttpJson.notBase64();
        }
        byte[] body = read.get();
        if (body.length > MAX_FIELDS_BODY_BYTES) {
            return HttpJson.error(413, "body over " + MAX_FIELDS_BODY_BYTES + " bytes");
        }
        Map<String, Optional<String>> patch = new LinkedHashMap<>();
        try {
            JsonNode root = HttpJson.JSON.readTree(body);
            if (root == null || !root.isObject()) {
                return HttpJson.error(400, "body must be a JSON object of fields, e.g. {\"team\":\"search\"}");
            }
            root.fields().forEachRemaining(e -> patch.put(e.getKey(), e.getValue().isNull() ? Optional.empty()
                    : Optional.of(e.getValue().toString())));
        } catch (IOException e) {
            return HttpJson.error(400, "body is not JSON: " + firstLine(e.getMessage()));
        }
        return switch (fields.patch(url.get(), patch)) {
            case UpdateFields.Result.Updated updated -> {
                ObjectNode node = HttpJson.JSON.createObjectNode().put("url", updated.url().value());
                node.set("fields", Views.fields(updated.fields()));
                yield HttpJson.json(200, node);
            }
            case UpdateFields.Result.Invalid invalid -> HttpJson.error(400, invalid.reason());
            case UpdateFields.Result.Conflict conflict -> HttpJson.error(409, conflict.reason());
        };
    }
}
