package io.spiderling.local.nativecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.core.url.NormalizedUrl;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenariosTest {

    @Test
    void forCatalog_whenEveryCatalogEvent_expectEachOnceAndEachWithADefinedScenario(@TempDir Path work) {
        try (Fixture fixture = Fixture.start(work)) {
            List<Scenario> scenarios = Scenarios.forCatalog(Catalog.FUNCTIONS, fixture);

            Set<String> catalog = Catalog.FUNCTIONS.stream()
                    .flatMap(f -> f.sampleEvents().stream().map(e -> f.name() + " " + e))
                    .collect(Collectors.toSet());
            List<String> planned = scenarios.stream().map(s -> s.function() + " " + s.event()).toList();
            assertEquals(catalog, Set.copyOf(planned));
            assertEquals(planned.size(), Set.copyOf(planned).size(), "each event once");
            assertTrue(scenarios.stream().noneMatch(s -> s.expectations().isEmpty()),
                    "a new sample event needs its scenario in Scenarios.pipeline: " + scenarios.stream()
                            .filter(s -> s.expectations().isEmpty()).map(Scenario::event).toList());
        }
    }

    @Test
    void forCatalog_whenAFunctionIsLeftOut_expectItsEventsLeftOutToo(@TempDir Path work) {
        try (Fixture fixture = Fixture.start(work)) {
            List<FunctionSpec> onlyFetch = List.of(Catalog.function("fetch"));

            List<Scenario> scenarios = Scenarios.forCatalog(onlyFetch, fixture);

            assertEquals(List.of("sqs-fetch.json", "sqs-fetch-sitemap.json"), scenarios.stream().map(Scenario::event)
                    .toList());
        }
    }

    @Test
    void eventFrom_whenFetchJob_expectOnlyItsUrlAndGroupPointedAtTheLocalSite(@TempDir Path work) {
        try (Fixture fixture = Fixture.start(work)) {
            SampleEvents events = new SampleEvents(eventsDirectory());
            Scenario fetch = Scenarios.forCatalog(List.of(Catalog.function("fetch")), fixture).getFirst();

            var sample = events.load("sqs-fetch.json");
            var sent = fetch.eventFrom(events);

            String job = sent.at("/Records/0/body").asText();
            assertTrue(job.contains("\"url\":\"" + fixture.pageUrl() + "\""), job);
            assertTrue(job.contains("\"batchId\":\"5f6fa9c4-aca7-43f4-bafa-2d6b4977e3a5\""), job);
            assertEquals(NormalizedUrl.parse(fixture.pageUrl()).host(),
                    sent.at("/Records/0/attributes/MessageGroupId").asText());
            for (ObjectNode event : List.of(sent, sample)) {
                ((ObjectNode) event.at("/Records/0")).remove("body");
                ((ObjectNode) event.at("/Records/0/attributes")).remove("MessageGroupId");
            }
            assertEquals(sample, sent, "nothing else changed");
        }
    }

    static Path eventsDirectory() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (dir.resolve("events").resolve("sqs-fetch.json").toFile().isFile()) {
                return dir.resolve("events");
            }
        }
        throw new IllegalStateException("events/ not found");
    }
}
