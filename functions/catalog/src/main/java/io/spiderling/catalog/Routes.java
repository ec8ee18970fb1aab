package io.spiderling.catalog;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The HTTP API's one route table. API Gateway's routes, the local API server's dispatch and the {@code ingest} and
 * {@code api} handlers' own dispatch all read it, so a route exists in all three or in none.
 */
public final class Routes {

    private Routes() {}

    public static final List<Route> ALL = List.of(
            new Route("POST", "/batches", Operation.SUBMIT_BATCH),
            new Route("POST", "/batches/uploads", Operation.START_UPLOAD),
            new Route("GET", "/batches/{id}", Operation.BATCH_STATUS),
            new Route("GET", "/batches/{id}/urls", Operation.BATCH_URLS),
            new Route("DELETE", "/batches/{id}", Operation.CANCEL_BATCH),
            new Route("GET", "/urls", Operation.GET_URL),
            new Route("POST", "/urls/batchGet", Operation.BATCH_GET_URLS),
            new Route("GET", "/urls/content", Operation.URL_CONTENT),
            new Route("GET", "/urls/markdown", Operation.URL_MARKDOWN),
            new Route("GET", "/urls/inlinks", Operation.URL_INLINKS),
            new Route("PATCH", "/urls/fields", Operation.PATCH_URL_FIELDS),
            new Route("GET", "/.well-known/http-message-signatures-directory", Operation.KEY_DIRECTORY),
            new Route("GET", "/admin/fetching", Operation.FETCHING_STATUS),
            new Route("PUT", "/admin/fetching", Operation.SET_FETCHING),
            new Route("GET", "/admin/opt-outs", Operation.LIST_OPT_OUTS),
            new Route("PUT", "/admin/opt-outs/{site}", Operation.ADD_OPT_OUT),
            new Route("DELETE", "/admin/opt-outs/{site}", Operation.REMOVE_OPT_OUT),
            new Route("GET", "/admin/quotas/{client}", Operation.QUOTA_STATUS),
            new Route("PUT", "/admin/quotas/{client}", Operation.SET_QUOTA));

    /** A request matched to its route, with the path's parameters. */
    public record Match(Route route, Map<String, String> parameters) {
        public Operation operation() {
            return route.operation();
        }

        public String parameter(String name) {
            String value = parameters.get(name);
            if (value == null) {
                throw new IllegalArgumentException(route.routeKey() + " has no parameter " + name);
            }
            return value;
        }
    }

    /**
     * The route for a request. A literal segment wins over a parameter where both match, as in API Gateway
     * ({@code POST /batches/uploads} is never {@code /batches/{id}}).
     */
    public static Optional<Match> match(String method, String rawPath) {
        Optional<Match> best = Optional.empty();
        for (Route route : ALL) {
            Optional<Map<String, String>> parameters = route.match(method, rawPath);
            if (parameters.isPresent() && (best.isEmpty()
                    || parameters.get().size() < best.get().parameters().size())) {
                best = Optional.of(new Match(route, parameters.get()));
            }
        }
        return best;
    }

    public static List<Route> of(String function) {
        return ALL.stream().filter(r -> r.function().equals(function)).toList();
    }
}
