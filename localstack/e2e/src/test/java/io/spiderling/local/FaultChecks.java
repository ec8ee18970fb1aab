package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.FaultInjector;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.RecordedRequest;
import io.spiderling.testkit.StackResources;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import io.spiderling.core.url.NormalizedUrl;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * What every fault scenario shares: a small farm of local sites (robots.txt disallowing {@code /private} on each, a
 * fast rate through the rate overrides file), a fresh set of tables and queues on the shared emulators, a local stack
 * with the scenario's {@link FaultInjector}, and the checks every scenario ends with:
 * <ul>
 *   <li>every submitted URL in exactly one terminal state, the one it should have, through {@code GET
 *       /batches/{id}/urls};</li>
 *   <li>the batch's counts equal to its items' states (nothing counted twice), through {@code GET /batches/{id}};</li>
 *   <li>the sites' own logs: no robots-disallowed path requested; each page once unless the scenario names why it may
 *       be asked again; the rate slots the pipeline granted an interval apart, and every request on a slot of its
 *       own. Two requests closer than the interval minus {@value #TOLERANCE_MS} ms in a site's log are reported.</li>
 * </ul>
 */
final class FaultChecks {

    /** Two requests a second per site. */
    static final Duration INTERVAL = Duration.ofMillis(500);
    /**
     * How much closer than the interval two requests may reach a site's log before the check reports them. The rate
     * is judged exactly, and fails the scenario, on the slots the pipeline granted ({@link RateSlots}): an interval
     * apart, each request on a slot of its own, never before it. The arrivals are only reported when closer than
     * this: a request leaves on a Vert.x event loop and the site logs it on its server thread, and two cores shared
     * with other builds delayed that by up to about 600 ms in these runs (two requests granted slots 500 ms apart
     * reached a site in the same millisecond), which no tolerance short of the interval separates from a real excess.
     */
    static final long TOLERANCE_MS = 350;
    /** The sites' clock against the slots': the same clock, a slot written rounded up to the millisecond. */
    private static final long CLOCK_MS = 2;
    /**
     * The most a request may arrive before its slot: the first after the site was free goes out once the fetcher is
     * ready, up to its lead (250 ms) and the margin late sends taught it (LateMargin.MAX, 1 s) before the slot taken.
     */
    private static final Duration EARLY_AT_MOST = Duration.ofMillis(1_250);
    /**
     * The fetch queue's visibility in the scenarios (the catalog's is 360 s): longer than an invocation of 10 messages
     * of one site takes at {@link #INTERVAL} (a first try with 3 s had messages come back while still being handled,
     * which is scenario 3's case, not a lost invocation's), short enough for a failed message to come back soon.
     */
    static final Duration VISIBILITY = Duration.ofSeconds(8);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final AtomicInteger RUNS = new AtomicInteger();

    private FaultChecks() {}

    /** The sites, the URLs submitted, and the state each must end in. */
    record Farm(LocalSites sites, Path rates, Map<String, String> expected, RateSlots slots) implements AutoCloseable {
        List<String> urls() {
            return List.copyOf(expected.keySet());
        }

        @Override
        public void close() {
            sites.close();
        }
    }

    /** {@code sites} sites of {@code pages} pages each, and one robots-disallowed URL per site. */
    static Farm farm(int sites, int pages, Path dir) throws Exception {
        LocalSites local = LocalSites.start(sites);
        Map<String, String> expected = new LinkedHashMap<>();
        StringBuilder rates = new StringBuilder();
        for (LocalSite site : local.sites()) {
            site.respond("/robots.txt", 200, "text/plain",
                    "User-agent: *\nDisallow: /private\n".getBytes(StandardCharsets.UTF_8));
            for (int p = 0; p < pages; p++) {
                site.page("/p/" + p, "<html><head><title>" + site.host() + " " + p + "</title></head></html>");
                expected.put(site.url("/p/" + p), "fetched");
            }
            site.page("/private/secret", "<title>never</title>");
            expected.put(site.url("/private/secret"), "disallowed");
            rates.append(site.host()).append(' ').append(1000.0 / INTERVAL.toMillis()).append('\n');
        }
        Path file = Files.writeString(dir.resolve("rates-" + RUNS.incrementAndGet() + ".txt"), rates);
        return new Farm(local, file, expected, new RateSlots());
    }

    /**
     * Fresh tables and queues for one scenario, with the fetch queue's visibility lowered from the catalog's 360 s
     * so that a message whose invocation died comes back within the test's time.
     */
    static StackResources resources(EmbeddedAws aws, String scenario, Duration fetchVisibility) {
        StackResources resources = aws.provision("faults-" + scenario + "-" + RUNS.incrementAndGet());
        aws.sqs().setQueueAttributes(b -> b.queueUrl(resources.fetchQueueUrl()).attributes(Map.of(
                QueueAttributeName.VISIBILITY_TIMEOUT, Long.toString(fetchVisibility.toSeconds()))));
        return resources;
    }

    /** The runner's options for the farm: its rates, short waits, the sample clients, and the injector. */
    static LocalSpiderling.Options options(Farm farm, FaultInjector faults) {
        return LocalApi.withSampleClients(LocalSpiderling.Options.defaults())
                .withConfig("spiderling.fetch.rate-overrides-file", farm.rates().toString())
                .withConfig("spiderling.fetch.robots-retry-base", "1s")
                .withConfig("spiderling.fetch.retry-base", "1s")
                // A manifest whose S3 event failed every try is planned by the sweep after this (5 minutes by default).
                .withConfig("spiderling.sweep.unplanned-after", "10s")
                .withInterceptors(List.of(faults, farm.slots()));
    }

    static LocalSpiderling start(EmbeddedAws aws, StackResources resources, Farm farm, FaultInjector faults,
            UnaryOperator<LocalSpiderling.Options> tweak) {
        return LocalSpiderling.start(aws, resources, tweak.apply(options(farm, faults)));
    }

    /** Submits the URLs as one batch (with the injector disarmed: the faults are for what follows). */
    static String submit(LocalSpiderling local, FaultInjector faults, List<String> urls) throws Exception {
        faults.disarm();
        try {
            return LocalApi.submit(local, urls);
        } finally {
            faults.arm();
        }
    }

    /**
     * Polls the batch's status until it is done with its completion recorded, or the timeout passes. The API's own
     * calls may meet injected faults: an answer other than 200 is asked again.
     */
    static JsonNode awaitDone(LocalSpiderling local, String batchId, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            HttpResponse<String> response = HTTP.send(LocalApi.request(local, "/batches/" + batchId).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                last = JSON.readTree(response.body());
                if (last.get("done").asBoolean() && last.has("completedAt")) {
                    return last;
                }
            }
            Thread.sleep(250);
        }
        return last;
    }

    /**
     * Waits until the queue holds no message, visible or in flight (a batch can be done while copies of its messages
     * still come back). Returns false on timeout.
     */
    static boolean awaitDrained(EmbeddedAws aws, String queueUrl, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Map<QueueAttributeName, String> a = aws.sqs().getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(
                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
            if ("0".equals(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                    && "0".equals(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))) {
                return true;
            }
            Thread.sleep(250);
        }
        return false;
    }

    /**
     * The checks every scenario ends with, read with the injector disarmed. {@code repeats} names the pages ({@link #page})
     * that a fault may legitimately make the site serve twice, with why; a repeat of any other page fails. Returns a
     * line on what the sites saw, for the scenario's report.
     */
    static String verify(LocalSpiderling local, FaultInjector faults, String batchId, Farm farm, JsonNode status,
            Map<String, String> repeats) throws Exception {
        faults.disarm();
        assertTrue(status != null && status.get("done").asBoolean(), () -> "batch not done: " + status
                + "; injected " + faults.injected() + ": " + faults.injections().stream()
                .map(i -> i.rule() + ": " + i.request()).toList());

        // Every URL once, in the state it must end in.
        Map<String, String> states = new HashMap<>();
        Map<String, String> details = new HashMap<>();
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            String path = "/batches/" + batchId + "/urls?limit=100"
                    + (cursor == null ? "" : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
            JsonNode page = LocalApi.get(local, path);
            for (JsonNode item : page.get("items")) {
                seen.add(item.get("url").asText());
                states.put(item.get("url").asText(), item.get("state").asText());
                if (item.has("detail")) {
                    details.put(item.get("url").asText(), item.get("detail").asText());
                }
            }
            cursor = page.get("cursor").isNull() ? null : page.get("cursor").asText();
        } while (cursor != null);
        assertEquals(farm.expected().size(), seen.size(), "items listed: " + seen);
        Map<String, String> wrong = new HashMap<>();
        states.forEach((url, state) -> {
            if (!state.equals(farm.expected().get(url))) {
                wrong.put(url, state + " (" + details.get(url) + ")");
            }
        });
        assertEquals(Map.of(), wrong, "URLs not in the state they must end in; injected " + faults.injections()
                .stream().map(i -> i.rule() + ": " + i.request()).toList());
        assertEquals(farm.expected(), states, "each URL's terminal state");

        // The counts are the items' states, each counted once.
        JsonNode fresh = LocalApi.get(local, "/batches/" + batchId);
        Map<String, Integer> byState = new HashMap<>();
        states.values().forEach(s -> byState.merge(s, 1, Integer::sum));
        Map<String, Integer> counts = new HashMap<>();
        fresh.get("counts").fields().forEachRemaining(e -> {
            if (e.getValue().asInt() != 0) {
                counts.put(e.getKey(), e.getValue().asInt());
            }
        });
        assertEquals(byState, counts, "the batch's counts against its items: " + fresh);
        assertEquals(farm.expected().size(), fresh.get("total").asInt(), fresh.toString());

        // What the sites saw.
        StringBuilder report = new StringBuilder();
        StringBuilder bunched = new StringBuilder();
        for (LocalSite site : farm.sites().sites()) {
            List<RecordedRequest> log = site.requests().stream()
                    .sorted(Comparator.comparing(RecordedRequest::receivedAt)).toList();
            Map<String, Integer> perPath = new HashMap<>();
            log.forEach(r -> perPath.merge(r.path(), 1, Integer::sum));
            for (Map.Entry<String, Integer> e : perPath.entrySet()) {
                assertTrue(!e.getKey().startsWith("/private"), site.host() + " was asked for " + e.getKey()
                        + ", which its robots.txt disallows");
                if (e.getValue() > 1) {
                    String why = repeats.get(site.host() + e.getKey());
                    assertTrue(why != null, site.host() + e.getKey() + " requested " + e.getValue()
                            + " times; injected " + faults.injected() + "; the site's log: " + timeline(log));
                    report.append(site.host()).append(e.getKey()).append(" ×").append(e.getValue()).append(" (")
                            .append(why).append("); ");
                }
            }
            // The slots granted are an interval apart (exactly: they are the pipeline's own writes), and each request
            // arrived at or after a slot of its own (late, as a busy machine may make it, but never unslotted); or, the
            // first after the site was free, up to the fetcher's lead before its slot, but an interval after the slot
            // before it (RateDecision.Granted#opens).
            List<Instant> slots = farm.slots().of(site.host());
            assertTrue(!slots.isEmpty() || log.isEmpty(), site.host() + ": no rate slot seen");
            for (int i = 1; i < slots.size(); i++) {
                assertTrue(Duration.between(slots.get(i - 1), slots.get(i)).toMillis() >= INTERVAL.toMillis() - 1,
                        site.host() + ": slots granted " + slots.get(i - 1) + " and " + slots.get(i));
            }
            int next = 0;
            for (RecordedRequest r : log) {
                Instant arrived = r.receivedAt().plusMillis(CLOCK_MS);
                assertTrue(next < slots.size(), site.host() + r.path() + " arrived at " + r.receivedAt()
                        + " with no slot of its own left (slots " + slots + "); the site's log: " + timeline(log));
                Instant slot = slots.get(next);
                boolean opened = (next == 0 || !slots.get(next - 1).plus(INTERVAL).isAfter(arrived))
                        && Duration.between(r.receivedAt(), slot).compareTo(EARLY_AT_MOST) <= 0;
                assertTrue(!slot.isAfter(arrived) || opened, site.host() + r.path() + " arrived at "
                        + r.receivedAt() + ", before its slot " + slot + " and less than an interval after the one"
                        + " before (slots " + slots + "); the site's log: " + timeline(log));
                next++;
            }
            for (int i = 1; i < log.size(); i++) {
                long gap = Duration.between(log.get(i - 1).receivedAt(), log.get(i).receivedAt()).toMillis();
                if (gap < INTERVAL.toMillis() - TOLERANCE_MS) {
                    // Reported, not failed: the slots above were an interval apart and each request had its own, so
                    // the pipeline kept the rate; the requests left late and together (see TOLERANCE_MS).
                    bunched.append(site.host()).append(log.get(i - 1).path()).append('+').append(log.get(i).path())
                            .append(' ').append(gap).append(" ms apart; ");
                }
            }
        }
        faults.requireFired();
        return "injected " + faults.injected() + (report.isEmpty() ? "; no page asked twice" : "; repeats: " + report)
                + (bunched.isEmpty() ? "" : "; arrived bunched despite spaced slots: " + bunched);
    }

    private static String timeline(List<RecordedRequest> log) {
        StringBuilder out = new StringBuilder();
        for (RecordedRequest r : log) {
            out.append(r.path()).append('@').append(Duration.between(log.getFirst().receivedAt(), r.receivedAt())
                    .toMillis()).append(' ');
        }
        return out.toString();
    }

    /**
     * The pages a fault may legitimately make a site serve twice: those whose fetch result was lost because storing
     * its body (S3 PutObject) or its row (the urls table's update) failed, so the job's retry asks again; and a site's
     * robots.txt whose fetched rules were not saved (the sites table's PutItem of the rules), asked again once the
     * fetch claim runs out. Read from the
     * injections: every one by a rule {@code toCode} names, and pages whose stores met at least as many error answers
     * from rules {@code toSdk} names as the SDK makes attempts (4 for S3, 9 for DynamoDB here), so that one call may
     * have failed through its retries.
     */
    static Map<String, String> lostResults(FaultInjector faults, Farm farm, Predicate<String> toCode,
            Predicate<String> toSdk) {
        Map<String, String> byHash = new HashMap<>();
        farm.expected().keySet().forEach(url -> byHash.put(NormalizedUrl.parse(url).urlHash(), url));
        Map<String, String> repeats = new HashMap<>();
        Map<String, Integer> answered = new HashMap<>();
        for (FaultInjector.Injection i : faults.injections()) {
            String url = switch (i.request()) {
                case PutObjectRequest put -> put.metadata().get("url");
                case UpdateItemRequest update when update.key().containsKey("urlHash") ->
                        byHash.get(update.key().get("urlHash").s());
                // The robots.txt rules fetched and then not saved: the claim runs out and they are fetched again.
                case PutItemRequest put when "robots".equals(attribute(put, "sk"))
                        && attribute(put, "pk").startsWith(ROBOTS_PREFIX) ->
                        attribute(put, "pk").substring(ROBOTS_PREFIX.length()) + "/robots.txt";
                default -> null;
            };
            if (url == null) {
                continue;
            }
            if (toCode.test(i.rule())) {
                repeats.put(page(url), i.rule() + " lost its fetch's result");
            } else if (toSdk.test(i.rule())) {
                int attempts = i.request() instanceof PutObjectRequest ? 4 : 9;
                if (answered.merge(url, 1, Integer::sum) >= attempts) {
                    repeats.put(page(url), attempts + " error answers to its stores: the SDK's attempts ran out");
                }
            }
        }
        return repeats;
    }

    /** The robots store's key prefix of an origin's cached rules ({@code DynamoDbRobotsStore}). */
    private static final String ROBOTS_PREFIX = "ROBOTS#";

    private static String attribute(PutItemRequest put, String name) {
        var value = put.item().get(name);
        return value == null || value.s() == null ? "" : value.s();
    }

    static Map<String, String> lostResults(FaultInjector faults, Farm farm, Predicate<String> toCode) {
        return lostResults(faults, farm, toCode, rule -> false);
    }

    /** A page as {@link #verify}'s repeats name it: its site's host and its path, {@code 127.0.0.3/p/5}. */
    static String page(String url) {
        URI uri = URI.create(url);
        return uri.getHost() + uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }

    /** Pages that may repeat: none. */
    static Map<String, String> noRepeats() {
        return Map.of();
    }

}
