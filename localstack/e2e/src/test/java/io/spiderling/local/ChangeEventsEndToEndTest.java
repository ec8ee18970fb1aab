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
 */
@ExtendWith(EmbeddedAwsExtension.class)
class ChangeEventsEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant MODIFIED = Instant.parse("2026-11-01T00:00:00Z");

    @Test
    void twoBatches_whenSomePagesChangeInBetween_expectExactlyTheirChangeEvents(EmbeddedAws aws,
            StackResources resources, @TempDir Path dir) throws Exception {
        FaultInjector faults = FaultInjector.create().add(new Rule("changed refused",
                Call.sqs("SendMessage").onQueue(resources.eventsQueueUrl()).and(r -> r instanceof SendMessageRequest m
                        && m.messageBody().contains("\"type\":\"url.changed\""), " of url.changed"),
                When.matches(1), new Fault.Refused(FaultInjector::sqsInternalError)));
        try (LocalSites sites = LocalSites.start(2);
                LocalSpiderling local = LocalSpiderling.start(aws, resources,
                        LocalApi.withSampleClients(LocalSpiderling.Options.defaults())
                                .withConfig("spiderling.fetch.rate-overrides-file",
                                        sites.rateOverrides(dir, 20).toString())
                                .withInterceptors(List.of(faults)))) {
            HeardEvents heard = new HeardEvents();
            local.listen(heard);
            LocalSite plain = sites.site(0);
            LocalSite cacheable = sites.site(1);
            List<String> urls = new ArrayList<>();
            for (int p = 0; p < 8; p++) {
                plain.page("/a/" + p, page("a" + p, "first", "n1"));
                urls.add(plain.url("/a/" + p));
            }
            for (int p = 0; p < 6; p++) {
                cacheable.cacheablePage("/b/" + p, page("b" + p, "first", "n1"), MODIFIED);
                urls.add(cacheable.url("/b/" + p));
            }

            JsonNode first = LocalApi.awaitDone(local, LocalApi.submit(local, urls), Duration.ofSeconds(60));
            assertEquals(urls.size(), first.at("/counts/fetched").asInt(), first.toString());
            assertTrue(HeardEvents.await(() -> changes(local, urls).values().stream().allMatch("new"::equals),
                    Duration.ofSeconds(30)), "every page new: " + changes(local, urls));

            // Between the runs: two plain pages and one cacheable page change their text; one of each changes only
            // its script's nonce; the rest stay byte for byte (the cacheable ones answer 304).
            plain.page("/a/0", page("a0", "second", "n1"));
            plain.page("/a/1", page("a1", "second", "n2"));
            plain.page("/a/2", page("a2", "first", "n2"));
            cacheable.cacheablePage("/b/0", page("b0", "second", "n1"), MODIFIED.plusSeconds(60));
            cacheable.cacheablePage("/b/1", page("b1", "first", "n2"), MODIFIED.plusSeconds(60));
            Set<String> changed = new TreeSet<>(List.of(plain.url("/a/0"), plain.url("/a/1"), cacheable.url("/b/0")));

            JsonNode second = LocalApi.awaitDone(local, LocalApi.submit(local, urls,
                    JSON.createObjectNode().put("recrawlAfter", "PT0S")), Duration.ofSeconds(60));
            assertEquals(urls.size(), second.at("/counts/fetched").asInt() + second.at("/counts/not-modified").asInt(),
                    second.toString());
            assertTrue(HeardEvents.await(() -> heard.urls("url.changed").equals(changed) && changes(local, urls).size() == urls.size(),
                    Duration.ofSeconds(30)), "heard " + heard);
            Thread.sleep(1000); // anything else would have arrived by now

            faults.disarm();
            faults.requireFired();
            assertEquals(changed, heard.urls("url.changed"), "only the pages whose text changed: " + heard);
            Map<String, String> ids = new TreeMap<>();
            heard.of("url.changed").forEach(e -> ids.merge(e.get("url").asText(), e.get("eventId").asText(),
                            (a, b) -> a.equals(b) ? a : a + " and " + b));
            assertEquals(changed.size(), Set.copyOf(ids.values()).size(), "one distinct id per change: " + ids);
            Map<String, String> states = changes(local, urls);
            for (String url : urls) {
                assertEquals(changed.contains(url) ? "changed" : "unchanged", states.get(url), url);
            }
            System.out.println("[changes] " + heard.of("url.changed").stream().map(JsonNode::toString)
                    .collect(Collectors.joining("\n")));
        }
    }

    /** A page with a heading, a paragraph of {@code text} and a script whose nonce is {@code nonce}. */
    private static String page(String title, String text, String nonce) {
        return "<html><head><title>" + title + "</title><script nonce='" + nonce + "'>var n='" + nonce
                + "';</script></head><body><h1>" + title + "</h1><p>" + text + "</p></body></html>";
    }

    /** The {@code change.state} of each URL's record that has one. */
    private static Map<String, String> changes(LocalSpiderling local, List<String> urls) {
        Map<String, String> states = new TreeMap<>();
        try {
            for (String url : urls) {
                JsonNode record = LocalApi.get(local, "/urls?url=" + URLEncoder.encode(url, StandardCharsets.UTF_8));
                if (record.has("change")) {
                    states.put(url, record.get("change").get("state").asText());
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("reading the URLs' records", e);
        }
        return states;
    }
}
