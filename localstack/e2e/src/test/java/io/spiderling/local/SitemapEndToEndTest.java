package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.RecordedRequest;
import io.spiderling.testkit.StackResources;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sitemaps (ADR 19). A batch that names only sitemaps: an index whose children are a plain and a gzipped urlset, and a
 * sitemap robots.txt disallows. Every listed URL becomes an item, the cross-site one refused with its reason; the
 * site's log shows robots.txt first, the sitemaps within the rate, and nothing under the disallowed path. And a batch
 * of one URL that asks for its site's own sitemaps ({@code sitemapsFromRobots}): the robots.txt names one sitemap on
 * the site and one hosted on another site, which may list the first site's URLs by the cross-submit rule.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class SitemapEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration INTERVAL = Duration.ofMillis(200);

    private static String urlset(String... urls) {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for (String url : urls) {
            xml.append("  <url><loc>").append(url).append("</loc></url>\n");
        }
        return xml.append("</urlset>\n").toString();
    }

    private static byte[] gzip(String text) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }

    @Test
    void batch_whenItAsksForTheSitesSitemaps_expectTheRobotsTxtItsSitemapsAndEveryUrlTheyListAsItems(EmbeddedAws aws,
            StackResources resources, @TempDir Path dir) throws Exception {
        try (LocalSites sites = LocalSites.start(2);
                LocalSpiderling local = LocalSpiderling.start(aws, resources,
                        LocalApi.withSampleClients(LocalSpiderling.Options.defaults())
                                .withConfig("spiderling.fetch.rate-overrides-file",
                                        sites.rateOverrides(dir, (int) (1000 / INTERVAL.toMillis())).toString()))) {
            LocalSite site = sites.site(0);
            LocalSite cdn = sites.site(1);
            site.respond("/robots.txt", 200, "text/plain", ("User-agent: *\nDisallow: /private\n\n"
                    + "Sitemap: " + site.url("/sitemap.xml") + "\n"
                    + "Sitemap: " + cdn.url("/sites/first/sitemap.xml") + "\n").getBytes(StandardCharsets.UTF_8));
            site.respond("/sitemap.xml", 200, "application/xml",
                    urlset(site.url("/p/1"), site.url("/p/2")).getBytes(StandardCharsets.UTF_8));
            // On another site, listing the first site's URLs: allowed because the first site's robots.txt named it.
            cdn.respond("/sites/first/sitemap.xml", 200, "application/xml",
                    urlset(site.url("/p/3"), site.url("/")).getBytes(StandardCharsets.UTF_8));
            for (String page : List.of("/", "/p/1", "/p/2", "/p/3")) {
                site.page(page, "<title>" + page + "</title>");
            }

            var options = JSON.createObjectNode().put("sitemapsFromRobots", true);
            String batchId = LocalApi.submit(local, List.of(site.url("/")), options);
            JsonNode status = LocalApi.awaitDone(local, batchId, Duration.ofSeconds(90));

            assertTrue(status.get("done").asBoolean(), status.toString());
            Map<String, JsonNode> items = new TreeMap<>();
            LocalApi.get(local, "/batches/" + batchId + "/urls?limit=100").get("items").forEach(item -> items.put(
                    item.path("kind").asText("page") + " " + item.get("url").asText(), item));
            assertEquals(List.of("page " + site.url("/"), "page " + site.url("/p/1"), "page " + site.url("/p/2"),
                    "page " + site.url("/p/3"), "sitemap " + cdn.url("/sites/first/sitemap.xml"),
                    "sitemap " + site.url("/robots.txt"), "sitemap " + site.url("/sitemap.xml")).stream().sorted()
                    .toList(), List.copyOf(items.keySet()), items.toString());
            JsonNode robots = items.get("sitemap " + site.url("/robots.txt"));
            assertEquals("sitemap-expanded", robots.get("reason").asText(), robots.toString());
            assertEquals("robots.txt names 2 sitemaps: 2 items, 0 duplicates, 0 refused",
                    robots.get("detail").asText());
            JsonNode crossSubmitted = items.get("sitemap " + cdn.url("/sites/first/sitemap.xml"));
            assertEquals("sitemap-expanded", crossSubmitted.get("reason").asText(), crossSubmitted.toString());
            assertEquals("listed 2 URLs, 0 refused: 1 items, 1 duplicates", crossSubmitted.get("detail").asText(),
                    "the site's home page is the batch's own URL");
            assertEquals("sitemap-expanded", items.get("sitemap " + site.url("/sitemap.xml")).get("reason").asText());
            for (String page : List.of("/", "/p/1", "/p/2", "/p/3")) {
                assertEquals("fetched", items.get("page " + site.url(page)).get("state").asText(), page);
                assertEquals(1, site.requestCount(page), page + " fetched once");
            }
            assertEquals(7, status.get("total").asInt(), status.toString());

            List<RecordedRequest> log = site.requests();
            assertEquals("/robots.txt", log.getFirst().path(), "robots.txt before anything else: " + log);
            assertEquals(2, site.requestCount("/robots.txt"), "once for the rules, once as the batch's item: " + log);
            for (int i = 1; i < log.size(); i++) {
                Duration gap = Duration.between(log.get(i - 1).receivedAt(), log.get(i).receivedAt());
                assertTrue(gap.toMillis() >= INTERVAL.toMillis() - 60, log.get(i - 1).path() + " then "
                        + log.get(i).path() + " only " + gap.toMillis() + " ms apart");
            }
            assertEquals(List.of("/robots.txt", "/sites/first/sitemap.xml"),
                    cdn.requests().stream().map(RecordedRequest::path).toList(),
                    "the other site's rules, then the sitemap; its robots.txt is not read for sitemaps");
        }
    }

    @Test
    void batch_whenItNamesOnlySitemaps_expectAnItemPerListedUrlAndThePolitenessOfAnyFetch(EmbeddedAws aws,
            StackResources resources, @TempDir Path dir) throws Exception {
        try (LocalSites sites = LocalSites.start(2);
                LocalSpiderling local = LocalSpiderling.start(aws, resources,
                        LocalApi.withSampleClients(LocalSpiderling.Options.defaults())
                                .withConfig("spiderling.fetch.rate-overrides-file",
                                        sites.rateOverrides(dir, (int) (1000 / INTERVAL.toMillis())).toString()))) {
            LocalSite site = sites.site(0);
            LocalSite other = sites.site(1);
            site.respond("/robots.txt", 200, "text/plain",
                    "User-agent: *\nDisallow: /private\n".getBytes(StandardCharsets.UTF_8));
            site.respond("/sitemap_index.xml", 200, "application/xml", ("<?xml version=\"1.0\"?>\n"
                    + "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
                    + "  <sitemap><loc>" + site.url("/sitemap-a.xml") + "</loc></sitemap>\n"
                    + "  <sitemap><loc>" + site.url("/sitemap-b.xml.gz") + "</loc></sitemap>\n"
                    + "</sitemapindex>\n").getBytes(StandardCharsets.UTF_8));
            site.respond("/sitemap-a.xml", 200, "application/xml", urlset(site.url("/p/1"), site.url("/p/2"),
                    other.url("/elsewhere"), site.url("/p/1")).getBytes(StandardCharsets.UTF_8));
            site.respond("/sitemap-b.xml.gz", 200, "application/x-gzip",
                    gzip(urlset(site.url("/p/3"), site.url("/private/secret"))));
            site.respond("/private/sitemap.xml", 200, "application/xml",
                    urlset(site.url("/p/never")).getBytes(StandardCharsets.UTF_8));
            for (String page : List.of("/p/1", "/p/2", "/p/3", "/private/secret", "/p/never")) {
                site.page(page, "<title>" + page + "</title>");
            }
            other.page("/elsewhere", "<title>elsewhere</title>");

            var options = JSON.createObjectNode();
            options.putArray("sitemaps").add(site.url("/sitemap_index.xml")).add(site.url("/private/sitemap.xml"));
            String batchId = LocalApi.submit(local, List.of(), options);
            JsonNode status = LocalApi.awaitDone(local, batchId, Duration.ofSeconds(90));

            assertTrue(status.get("done").asBoolean(), status.toString());
            Map<String, JsonNode> items = new TreeMap<>();
            LocalApi.get(local, "/batches/" + batchId + "/urls?limit=100").get("items").forEach(item -> items.put(
                    item.path("kind").asText("page") + " " + item.get("url").asText().replace(site.baseUrl(), ""),
                    item));
            assertEquals(List.of("invalid " + other.url("/elsewhere").replace(site.baseUrl(), ""),
                    "page /p/1", "page /p/2", "page /p/3", "page /private/secret", "sitemap /private/sitemap.xml",
                    "sitemap /sitemap-a.xml", "sitemap /sitemap-b.xml.gz", "sitemap /sitemap_index.xml"),
                    items.keySet().stream().map(k -> items.get(k).get("state").asText().equals("invalid")
                            ? "invalid " + k.substring(k.indexOf(' ') + 1) : k).sorted().toList(), items.toString());
            assertEquals("sitemap-expanded", items.get("sitemap /sitemap_index.xml").get("reason").asText());
            assertEquals("sitemap-expanded", items.get("sitemap /sitemap-b.xml.gz").get("reason").asText(),
                    "the gzipped sitemap read: " + items);
            assertEquals("robots-disallowed", items.get("sitemap /private/sitemap.xml").get("reason").asText());
            assertEquals("fetched", items.get("page /p/3").get("state").asText());
            assertEquals("robots-disallowed", items.get("page /private/secret").get("reason").asText());
            JsonNode refused = items.values().stream().filter(i -> i.get("state").asText().equals("invalid"))
                    .findFirst().orElseThrow();
            assertEquals("sitemap-other-site", refused.get("reason").asText(), refused.toString());
            assertEquals(9, status.get("total").asInt(), status.toString());

            List<RecordedRequest> log = site.requests();
            assertEquals("/robots.txt", log.getFirst().path(), "robots.txt before any sitemap: " + log);
            assertFalse(log.stream().anyMatch(r -> r.path().startsWith("/private")), log.toString());
            assertEquals(0, other.requestCount("/elsewhere"), "a refused entry is not fetched");
            for (int i = 1; i < log.size(); i++) {
                Duration gap = Duration.between(log.get(i - 1).receivedAt(), log.get(i).receivedAt());
                assertTrue(gap.toMillis() >= INTERVAL.toMillis() - 60, log.get(i - 1).path() + " then "
                        + log.get(i).path() + " only " + gap.toMillis() + " ms apart");
            }
            System.out.println("[sitemaps] " + items.size() + " items: " + items.values().stream()
                    .map(i -> i.path("kind").asText("page") + " " + i.get("state").asText() + " "
                            + i.path("reason").asText() + " " + i.path("detail").asText()).toList());
        }
    }
}
