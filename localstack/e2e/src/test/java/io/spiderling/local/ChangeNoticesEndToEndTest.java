package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.spiderling.core.notify.WebhookSignature;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.FaultInjector;
import io.spiderling.testkit.FaultInjector.Call;
import io.spiderling.testkit.FaultInjector.Fault;
import io.spiderling.testkit.FaultInjector.Rule;
import io.spiderling.testkit.FaultInjector.When;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.SampleClients;
import io.spiderling.testkit.StackResources;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * Issue 23's {@code "notify": ["changes"]} end to end: after a first run, some pages change, and three batches run
 * over them at once: two ask for changes on their webhook, one does not. Each of the two gets exactly the changed
 * pages' {@code url.changed}, signed with its client's secret, under the listeners' event ids, with its own batch id;
 * the third gets its completion and nothing else. One page's new bytes were already stored (another URL served them
 * in the first run), so its change is extracted inline by the fetch stage; the other's comes through the stored
 * body's event. The first notice the notify queue is sent is refused, and still arrives; so is the listeners'
 * {@code url.changed} of the page extracted inline, which its fetch message's retry sends again.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class ChangeNoticesEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant MODIFIED = Instant.parse("2026-11-01T00:00:00Z");
    private static final int PAGES = 3;

    /** One webhook delivery as the receiver saw it. */
    private record Delivery(Map<String, String> headers, byte[] body, JsonNode json) {}

    /** A webhook receiver on 127.0.0.1 that takes everything. */
    private static final class Receiver implements AutoCloseable {
        final List<Delivery> deliveries = Collections.synchronizedList(new ArrayList<>());
        private final HttpServer server;

        Receiver() throws Exception {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/hook", exchange -> {
                byte[] body = exchange.getRequestBody().readAllBytes();
                Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, v.getFirst()));
                deliveries.add(new Delivery(headers, body, JSON.readTree(body)));
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
        }

        /** The deliveries of events of {@code type} for batch {@code batchId}. */
        List<Delivery> of(String type, String batchId) {
            return List.copyOf(deliveries).stream().filter(d -> d.json().path("type").asText().equals(type)
                    && d.json().path("batchId").asText().equals(batchId)).toList();
        }

        /** The URLs the {@code url.changed} deliveries for {@code batchId} named. */
        Set<String> changedUrls(String batchId) {
            return of("url.changed", batchId).stream().map(d -> d.json().get("url").asText())
                    .collect(Collectors.toCollection(TreeSet::new));
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    @Test
    void threeBatches_whenTwoAskForChangesAndSomePagesChanged_expectExactlyTheChangedPagesOnTheirWebhooksOnly(
            EmbeddedAws aws, @TempDir Path dir) throws Exception {
        StackResources resources = aws.provision("change-notices");
        // A refused notice of the fetch stage's comes back with its fetch message: soon.
        aws.sqs().setQueueAttributes(b -> b.queueUrl(resources.fetchQueueUrl())
                .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "5")));
        var inlinePage = new java.util.concurrent.atomic.AtomicReference<String>();
        FaultInjector faults = FaultInjector.create().add(new Rule("change notice refused",
                Call.sqs("SendMessage").onQueue(resources.notifyQueueUrl()).and(r -> r instanceof SendMessageRequest m
                        && m.messageBody().contains("\"kind\":\"changed\""), " of a change notice"),
                When.matches(1), new Fault.Refused(FaultInjector::sqsInternalError)))
                .add(new Rule("inline url.changed refused", Call.sqs("SendMessage")
                        .onQueue(resources.eventsQueueUrl()).and(r -> r instanceof SendMessageRequest m
                                && m.messageBody().contains("\"type\":\"url.changed\"")
                                && inlinePage.get() != null
                                && m.messageBody().contains("\"url\":\"" + inlinePage.get() + "\""),
                                " of the inline page's url.changed"),
                        When.matches(1), new Fault.Refused(FaultInjector::sqsInternalError)));
        try (LocalSites sites = LocalSites.start(2);
                Receiver receiver = new Receiver();
                LocalSpiderling local = LocalSpiderling.start(aws, resources,
                        LocalApi.withSampleClients(LocalSpiderling.Options.defaults())
                                .withConfig("spiderling.fetch.rate-overrides-file",
                                        sites.rateOverrides(dir, 20).toString())
                                .withInterceptors(List.of(faults)))) {
            HeardEvents heard = new HeardEvents();
            local.listen(heard);
            // Site 0 serves plain pages; site 1 pages with validators (an unchanged one answers 304).
            List<String> urls = new ArrayList<>();
            for (int s = 0; s < 2; s++) {
                for (int p = 0; p < PAGES; p++) {
                    ChangingPages.serve(sites.site(s), s, p, "first", "n1", MODIFIED);
                    urls.add(sites.site(s).url("/p/" + p));
                }
            }
            // The bytes site 0's page 0 will serve next, stored now under another URL.
            String twin = sites.site(0).url("/twin");
            sites.site(0).page("/twin", ChangingPages.page("s0p0", "second", "n1"));
            List<String> firstRun = new ArrayList<>(urls);
            firstRun.add(twin);
            JsonNode first = LocalApi.awaitDone(local, LocalApi.submit(local, firstRun), Duration.ofSeconds(60));
            assertEquals(firstRun.size(), first.at("/counts/fetched").asInt(), first.toString());
            assertTrue(HeardEvents.await(() -> ChangingPages.changes(local, firstRun).size() == firstRun.size(),
                    Duration.ofSeconds(30)), "every page extracted");

            inlinePage.set(sites.site(0).url("/p/0"));
            // Page 0 of each site changes its text; page 2 only its script's nonce; page 1 stays byte for byte.
            Set<String> changed = new TreeSet<>();
            for (int s = 0; s < 2; s++) {
                ChangingPages.serve(sites.site(s), s, 0, "second", "n1", MODIFIED.plusSeconds(60));
                ChangingPages.serve(sites.site(s), s, 2, "first", "n2", MODIFIED.plusSeconds(60));
                changed.add(sites.site(s).url("/p/0"));
            }
            ObjectNode notify = JSON.createObjectNode().put("callbackUrl", receiver.url()).put("recrawlAfter", "PT0S");
            notify.putArray("notify").add("changes");
            ObjectNode plain = JSON.createObjectNode().put("callbackUrl", receiver.url()).put("recrawlAfter", "PT0S");
            String asking = LocalApi.submit(local, urls, notify);
            String alsoAsking = LocalApi.submit(local, urls, notify.deepCopy());
            String notAsking = LocalApi.submit(local, urls, plain);
            for (String batchId : List.of(asking, alsoAsking, notAsking)) {
                JsonNode done = LocalApi.awaitDone(local, batchId, Duration.ofSeconds(60));
                assertEquals(urls.size(), done.at("/counts/fetched").asInt() + done.at("/counts/not-modified").asInt(),
                        done.toString());
            }
            assertTrue(HeardEvents.await(() -> receiver.changedUrls(asking).equals(changed)
                    && receiver.changedUrls(alsoAsking).equals(changed)
                    && heard.urls("url.changed").equals(changed)
                    && receiver.of("batch.completed", notAsking).size() == 1, Duration.ofSeconds(60)),
                    "webhook got " + receiver.deliveries.stream().map(Delivery::json).toList() + "; listeners "
                            + heard);
            Thread.sleep(1000); // anything else would have arrived by now

            faults.disarm();
            faults.requireFired();
            Map<String, String> listenerIds = new TreeMap<>();
            heard.of("url.changed").forEach(e -> listenerIds.put(e.get("url").asText(), e.get("eventId").asText()));
            for (String batchId : List.of(asking, alsoAsking)) {
                assertEquals(changed, receiver.changedUrls(batchId), "only the changed pages, for " + batchId);
                for (Delivery d : receiver.of("url.changed", batchId)) {
                    var verified = WebhookSignature.verify(d.headers(), d.body(), SampleClients.SECRET_A,
                            Instant.now(), Duration.ofMinutes(5));
                    String eventId = assertInstanceOf(WebhookSignature.Verification.Valid.class, verified).eventId();
                    assertEquals(listenerIds.get(d.json().get("url").asText()), eventId,
                            "the listeners' id, so one deduplication serves both: " + d.json());
                    assertEquals(eventId, d.json().get("eventId").asText());
                    assertTrue(d.json().hasNonNull("previousDigest"), d.json().toString());
                }
                Set<String> ids = receiver.of("url.changed", batchId).stream()
                        .map(d -> d.json().get("eventId").asText()).collect(Collectors.toSet());
                assertEquals(changed.size(), ids.size(), "one id per changed page: " + ids);
                JsonNode view = LocalApi.get(local, "/batches/" + batchId);
                assertEquals("[\"changes\"]", view.get("notify").toString(), view.toString());
                assertFalse(view.at("/callback").has("changeNoticesFailed"), view.toString());
            }
            assertEquals(List.of(), receiver.of("url.changed", notAsking), "a batch that did not ask gets no change");
            assertFalse(LocalApi.get(local, "/batches/" + notAsking).has("notify"));
            Map<String, String> states = ChangingPages.changes(local, urls);
            for (String url : urls) {
                assertEquals(changed.contains(url) ? "changed" : "unchanged", states.get(url), url);
            }
            System.out.println("[change-notices] " + urls.size() + " pages, " + changed.size() + " changed: "
                    + receiver.of("url.changed", asking).size() + " and " + receiver.of("url.changed", alsoAsking)
                    .size() + " webhook deliveries, " + heard.of("url.changed").size() + " listener events; injected "
                    + faults.injected());
        }
    }
}
