package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.FaultInjector;
import io.spiderling.testkit.FaultInjector.Call;
import io.spiderling.testkit.FaultInjector.Fault;
import io.spiderling.testkit.FaultInjector.Rule;
import io.spiderling.testkit.FaultInjector.When;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.StackResources;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * Two batches over the same pages, some changed in between (ADR 18): the second run's {@code url.changed} events name
 * exactly the pages whose text changed, each under its own id, although one publish of them is refused; a page whose
 * bytes changed only in a script nonce, and one the site confirms with 304, are {@code unchanged}.
 *
 * <p>Half the sites serve plain pages (a recrawl gets the whole body again), the other half pages with validators
 * (a recrawl of an unchanged page gets 304). The size is the suite's unless these are set, for a larger run:
 * {@code -Dspiderling.change-run.sites=10 -Dspiderling.change-run.pages=100 -Dspiderling.change-run.changed=10}
 * (sites, pages per site, pages changed; the last page of each site changes only its nonce).
 */
@ExtendWith(EmbeddedAwsExtension.class)
class ChangeEventsEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant MODIFIED = Instant.parse("2026-11-01T00:00:00Z");
    private static final int SITES = Integer.getInteger("spiderling.change-run.sites", 2);
    private static final int PAGES = Integer.getInteger("spiderling.change-run.pages", 7);
    private static final int CHANGED = Integer.getInteger("spiderling.change-run.changed", 3);

    @Test
    void twoBatches_whenSomePagesChangeInBetween_expectExactlyTheirChangeEvents(EmbeddedAws aws,
            StackResources resources, @TempDir Path dir) throws Exception {
        FaultInjector faults = FaultInjector.create().add(new Rule("changed refused",
                Call.sqs("SendMessage").onQueue(resources.eventsQueueUrl()).and(r -> r instanceof SendMessageRequest m
                        && m.messageBody().contains("\"type\":\"url.changed\""), " of url.changed"),
                When.matches(1), new Fault.Refused(FaultInjector::sqsInternalError)));
        try (LocalSites sites = LocalSites.start(SITES);
                LocalSpiderling local = LocalSpiderling.start(aws, resources,
                        LocalApi.withSampleClients(LocalSpiderling.Options.defaults())
                                .withConfig("spiderling.fetch.rate-overrides-file",
                                        sites.rateOverrides(dir, 20).toString())
                                .withInterceptors(List.of(faults)))) {
            HeardEvents heard = new HeardEvents();
            local.listen(heard);
            List<String> urls = new ArrayList<>();
            for (int p = 0; p < PAGES; p++) {
                for (int s = 0; s < SITES; s++) {
                    ChangingPages.serve(sites.site(s), s, p, "first", "n1", MODIFIED);
                    urls.add(sites.site(s).url("/p/" + p));
                }
            }
            Duration timeout = Duration.ofSeconds(60 + urls.size() / 10);

            JsonNode first = LocalApi.awaitDone(local, LocalApi.submit(local, urls), timeout);
            assertEquals(urls.size(), first.at("/counts/fetched").asInt(), first.toString());
            assertTrue(HeardEvents.await(() -> ChangingPages.changes(local, urls).values().stream()
                    .allMatch("new"::equals)
                    && ChangingPages.changes(local, urls).size() == urls.size(), timeout), "every page new");

            // Between the runs: the first CHANGED pages (site by site) change their text; the last page of each site
            // changes only its script's nonce; the rest stay byte for byte (those with validators answer 304).
            Set<String> changed = new TreeSet<>();
            for (int k = 0; k < CHANGED; k++) {
                ChangingPages.serve(sites.site(k % SITES), k % SITES, k / SITES, "second", "n1",
                        MODIFIED.plusSeconds(60));
                changed.add(sites.site(k % SITES).url("/p/" + (k / SITES)));
            }
            for (int s = 0; s < SITES; s++) {
                ChangingPages.serve(sites.site(s), s, PAGES - 1, "first", "n2", MODIFIED.plusSeconds(60));
            }

            JsonNode second = LocalApi.awaitDone(local, LocalApi.submit(local, urls,
                    JSON.createObjectNode().put("recrawlAfter", "PT0S")), timeout);
            assertEquals(urls.size(), second.at("/counts/fetched").asInt() + second.at("/counts/not-modified").asInt(),
                    second.toString());
            assertTrue(HeardEvents.await(() -> heard.urls("url.changed").equals(changed)
                    && ChangingPages.changes(local, urls).size() == urls.size(), timeout), "heard " + heard);
            Thread.sleep(1000); // anything else would have arrived by now

            faults.disarm();
            faults.requireFired();
            assertEquals(changed, heard.urls("url.changed"), "only the pages whose text changed: " + heard);
            Map<String, String> ids = new TreeMap<>();
            heard.of("url.changed").forEach(e -> ids.merge(e.get("url").asText(), e.get("eventId").asText(),
                            (a, b) -> a.equals(b) ? a : a + " and " + b));
            assertEquals(changed.size(), Set.copyOf(ids.values()).size(), "one distinct id per change: " + ids);
            Map<String, String> states = ChangingPages.changes(local, urls);
            for (String url : urls) {
                assertEquals(changed.contains(url) ? "changed" : "unchanged", states.get(url), url);
            }
            System.out.println("[changes] " + urls.size() + " pages, " + changed.size() + " changed: "
                    + heard.of("url.changed").size() + " url.changed deliveries, " + Set.copyOf(ids.values()).size()
                    + " distinct ids; injected " + faults.injected() + "\n" + heard.of("url.changed").stream()
                    .limit(3).map(JsonNode::toString).collect(Collectors.joining("\n")));
        }
    }
}
