package io.spiderling.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.api.Test;

class RoutesTest {

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvFileSource(resources = "/catalog/route-match-cases.csv")
    void match_whenRequestGiven_findsTheRouteAndItsParameters(String method, String path, String expected,
            String parameters) {
        var match = Routes.match(method, path);
        if (expected.equals("NONE")) {
            assertTrue(match.isEmpty(), () -> "matched " + match.get().route().routeKey());
            return;
        }
        assertEquals(expected, match.orElseThrow().route().routeKey());
        Map<String, String> params = new LinkedHashMap<>();
        if (parameters != null) {
            for (String pair : parameters.split(";")) {
                String[] nv = pair.split("=", 2);
                params.put(nv[0], nv[1]);
            }
        }
        assertEquals(params, match.get().parameters());
    }

    @Test
    void all_whenListed_haveDistinctRouteKeysAndEveryOperationOnce() {
        Set<String> keys = new HashSet<>();
        Routes.ALL.forEach(r -> assertTrue(keys.add(r.routeKey()), r.routeKey() + " twice"));
        assertEquals(Set.of(Operation.values()),
                new HashSet<>(Routes.ALL.stream().map(Route::operation).toList()));
        assertEquals(Arrays.asList(Operation.values()).size(), Routes.ALL.size());
    }

    @Test
    void isAdmin_whenEveryRouteIsLookedAt_isExactlyThoseUnderAdminAndServedByTheApi() {
        for (Route route : Routes.ALL) {
            assertEquals(route.path().startsWith("/admin/"), route.operation().isAdmin(), route.routeKey());
            assertTrue(!route.operation().isAdmin() || route.function().equals(FunctionNames.API), route.routeKey());
            assertTrue(!(route.operation().isAdmin() && route.operation().isPublic()), route.routeKey());
        }
    }

    @Test
    void route_whenTemplateMalformed_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Route("GET", "batches", Operation.GET_URL));
        assertThrows(IllegalArgumentException.class, () -> new Route("GET", "/a b", Operation.GET_URL));
        assertThrows(IllegalArgumentException.class, () -> new Route("HEAD", "/urls", Operation.GET_URL));
    }

    @Test
    void parameter_whenNotInTheRoute_namesTheRoute() {
        var match = Routes.match("GET", "/urls").orElseThrow();
        var e = assertThrows(IllegalArgumentException.class, () -> match.parameter("id"));
        assertTrue(e.getMessage().contains("GET /urls"), e.getMessage());
    }
}
