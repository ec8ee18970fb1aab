package io.spiderling.lambda.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spiderling.aws.DynamoDbFetchSwitch;
import io.spiderling.catalog.ConfigKeys;
import io.spiderling.catalog.Operation;
import io.spiderling.catalog.Routes;
import io.spiderling.core.pipeline.OptOutList;
import io.spiderling.core.pipeline.Quotas;
import io.spiderling.core.politeness.OptOut;
import io.spiderling.core.url.SiteKey;
import io.spiderling.lambda.internal.HttpJson;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The operator controls (issue 25), admins only ({@link Admins}; any other client gets 403):
 * <ul>
 *   <li>{@code GET/PUT /admin/fetching}, {@code {"paused":true}}: the kill switch, the same item the fetchers and the
 *       frontier read ({@link DynamoDbFetchSwitch});</li>
 *   <li>{@code GET /admin/opt-outs}, {@code PUT/DELETE /admin/opt-outs/{site}}: the one opt-out list
 *       ({@link OptOutList}); the operator's file wins, so a site it lists cannot be deleted here (409);</li>
 *   <li>{@code GET/PUT /admin/quotas/{client}}, {@code {"urlsPerDay":N}}: a client's URLs a day, with what it used
 *       today and when that resets.</li>
 * </ul>
 */
final class AdminRoutes {

    private static final int MAX_BODY_BYTES = 4 * 1024;
    /** A clients-file id or an IAM ARN, generously: it only names a quota's items, and must fit a key. */
    private static final Pattern CLIENT_ID = Pattern.compile("[\\x21-\\x7e]{1,600}");

    private final Admins admins;
    private final DynamoDbFetchSwitch fetchSwitch;
    private final OptOutList optOuts;
    private final Quotas quotas;
    private final Duration appliesWithin;

    /** @param appliesWithin how long the fetchers may trust what they read of the switch and the opt-outs */
    AdminRoutes(Admins admins, DynamoDbFetchSwitch fetchSwitch, OptOutList optOuts, Quotas quotas,
            Duration appliesWithin) {
        this.admins = admins;
        this.fetchSwitch = fetchSwitch;
        this.optOuts = optOuts;
        this.quotas = quotas;
        this.appliesWithin = appliesWithin;
    }

    APIGatewayV2HTTPResponse handle(Routes.Match match, APIGatewayV2HTTPEvent event, String client) {
        if (!match.operation().isAdmin()) {
            throw new IllegalStateException(match.operation() + " is not an operator control");
        }
        if (!admins.admin(client, event)) {
            return HttpJson.error(403, "admin only: " + match.route().routeKey() + " is an operator control, and "
                    + client + " is not an admin (ADR 10)");
        }
        return switch (match.operation()) {
            case FETCHING_STATUS -> fetching(fetchSwitch.paused());
            case SET_FETCHING -> setFetching(event);
            case LIST_OPT_OUTS -> listOptOuts();
            case ADD_OPT_OUT, REMOVE_OPT_OUT -> {
                SiteKey site;
                try {
                    site = OptOut.siteKey(decode(match.parameter("site")));
                } catch (IllegalArgumentException e) {
                    yield HttpJson.error(400, "site: " + e.getMessage());
                }
                yield match.operation() == Operation.ADD_OPT_OUT ? addOptOut(site) : removeOptOut(site);
            }
            case QUOTA_STATUS, SET_QUOTA -> {
                String quotaClient;
                try {
                    quotaClient = decode(match.parameter("client"));
                } catch (IllegalArgumentException e) {
                    yield HttpJson.error(400, "client: not a percent-encoded path segment");
                }
                if (!CLIENT_ID.matcher(quotaClient).matches()) {
                    yield HttpJson.error(400, "client: a client id is 1 to 600 visible ASCII characters");
                }
                yield match.operation() == Operation.QUOTA_STATUS ? quota(quotaClient) : setQuota(quotaClient, event);
            }
            default -> throw new IllegalStateException("no operator control " + match.operation());
        };
    }

    private APIGatewayV2HTTPResponse fetching(boolean paused) {
        return HttpJson.json(200, HttpJson.JSON.createObjectNode().put("paused", paused)
                .put("appliesWithin", appliesWithin.toString()));
    }

    private APIGatewayV2HTTPResponse setFetching(APIGatewayV2HTTPEvent event) {
        Optional<JsonNode> body = object(event);
        JsonNode paused = body.map(b -> b.get("paused")).orElse(null);
        if (paused == null || !paused.isBoolean() || body.get().size() != 1) {
            return HttpJson.error(400, "body must be {\"paused\":true} or {\"paused\":false}");
        }
        fetchSwitch.set(paused.booleanValue());
        return fetching(paused.booleanValue());
    }

    private APIGatewayV2HTTPResponse listOptOuts() {
        ObjectNode node = HttpJson.JSON.createObjectNode().put("appliesWithin", appliesWithin.toString());
        ArrayNode sites = node.putArray("sites");
        optOuts.all().values().forEach(listed -> sites.add(view(listed)));
        return HttpJson.json(200, node);
    }

    private APIGatewayV2HTTPResponse addOptOut(SiteKey site) {
        return HttpJson.json(200, view(optOuts.add(site)).put("appliesWithin", appliesWithin.toString()));
    }

    private APIGatewayV2HTTPResponse removeOptOut(SiteKey site) {
        return switch (optOuts.remove(site)) {
            case OptOutList.Removal.Removed removed -> HttpJson.json(200, HttpJson.JSON.createObjectNode()
                    .put("site", site.value()).put("removed", true).put("appliesWithin", appliesWithin.toString()));
            case OptOutList.Removal.NotListed none -> HttpJson.error(404, "site " + site.value()
                    + " is not opted out over the API");
            case OptOutList.Removal.InFile file -> HttpJson.error(409, "site " + site.value() + " is listed by the"
                    + " opt-out file (" + ConfigKeys.FETCH_OPT_OUT_FILE.name() + "), which wins over the API: take it"
                    + " off the file");
        };
    }

    private static ObjectNode view(OptOutList.Listed listed) {
        ObjectNode node = HttpJson.JSON.createObjectNode().put("site", listed.site().value())
                .put("source", listed.source().name().toLowerCase(Locale.ROOT));
        listed.since().ifPresent(since -> node.put("since", since.toString()));
        return node;
    }

    private APIGatewayV2HTTPResponse quota(String client) {
        Quotas.Usage usage = quotas.usage(client);
        return HttpJson.json(200, HttpJson.JSON.createObjectNode().put("client", usage.client())
                .put("urlsPerDay", usage.limit()).put("source", usage.own() ? "client" : "default")
                .put("used", usage.used()).put("resetAt", usage.resetAt().toString()));
    }

    private APIGatewayV2HTTPResponse setQuota(String client, APIGatewayV2HTTPEvent event) {
        Optional<JsonNode> body = object(event);
        JsonNode limit = body.map(b -> b.get("urlsPerDay")).orElse(null);
        if (limit == null || !limit.canConvertToLong() || !limit.isIntegralNumber() || limit.asLong() < 0
                || body.get().size() != 1) {
            return HttpJson.error(400, "body must be {\"urlsPerDay\":N}, N a whole number >= 0 (0: unlimited)");
        }
        quotas.setLimit(client, limit.asLong());
        return quota(client);
    }

    /** The body as a JSON object, or empty when it is missing, too large, not JSON or not an object. */
    private static Optional<JsonNode> object(APIGatewayV2HTTPEvent event) {
        Optional<byte[]> body = HttpJson.body(event).filter(b -> b.length > 0 && b.length <= MAX_BODY_BYTES);
        if (body.isEmpty()) {
            return Optional.empty();
        }
        try {
            JsonNode node = HttpJson.JSON.readTree(body.get());
            return node != null && node.isObject() ? Optional.of(node) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** A path segment as sent: a client id that is an IAM ARN comes percent-encoded ({@code %2F} for '/'). */
    private static String decode(String segment) {
        return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
