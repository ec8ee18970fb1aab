package io.spiderling.local.nativecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.FunctionNames;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FunctionEnvironmentTest {

    private static final Map<String, String> DEPLOYMENT = Map.of(
            "spiderling.tables.batches", "nc-batches",
            "spiderling.queues.fetch", "http://127.0.0.1:9324/000000000000/nc-fetch.fifo",
            "spiderling.auth.mode", "gateway",
            "spiderling.auth.clients-file", "/tmp/clients.txt");

    @Test
    void variablesFor_whenCatalogKeys_expectOnlyThoseTheFunctionListsUnderTheirEnvironmentNames() {
        FunctionEnvironment environment = FunctionEnvironment.of(DEPLOYMENT, FunctionEnvironment.Keys.CATALOG);

        Map<String, String> api = environment.variablesFor(Catalog.function(FunctionNames.API));
        Map<String, String> notify = environment.variablesFor(Catalog.function(FunctionNames.NOTIFY));

        assertEquals(Map.of("SPIDERLING_TABLES_BATCHES", "nc-batches", "SPIDERLING_AUTH_MODE", "gateway",
                "SPIDERLING_AUTH_CLIENTS_FILE", "/tmp/clients.txt"), api,
                "the API sends no fetch jobs; it reads the clients file for its admins (ADR 10)");
        assertEquals("/tmp/clients.txt", notify.get("SPIDERLING_AUTH_CLIENTS_FILE"));
        assertFalse(notify.containsKey("SPIDERLING_AUTH_MODE"));
    }

    @Test
    void variablesFor_whenAllKeys_expectTheWholeDeployment() {
        Map<String, String> api = FunctionEnvironment.of(DEPLOYMENT, FunctionEnvironment.Keys.ALL)
                .variablesFor(Catalog.function(FunctionNames.API));

        assertEquals(4, api.size());
        assertTrue(api.containsKey("SPIDERLING_QUEUES_FETCH"));
    }

    @Test
    void of_whenNameIsNoCatalogKey_expectRefusedRatherThanDropped() {
        var refused = assertThrows(IllegalArgumentException.class, () -> FunctionEnvironment.of(
                Map.of("spiderling.tables.url", "typo"), FunctionEnvironment.Keys.CATALOG));

        assertTrue(refused.getMessage().contains("spiderling.tables.url"));
    }
}
