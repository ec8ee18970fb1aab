package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.StackResources;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sitemaps over the deployment's limits (ADR 19), set small with the {@code spiderling.sitemaps.*} keys: each limit
 * hit is reported on the sitemap's item, and the batch still completes. And a sitemap's {@code lastmod} read again by
 * a second batch: the page it says is unchanged since the fresh copy is skipped, the one it says changed is fetched.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class SitemapLimitsEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static byte[] urlset(String... entries) {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for (String entry : entries) {
            xml.append("  <url>").append(entry).append("</url>\n");
        }
        return xml.append("</urlset>\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String loc(String url) {
        return "<loc>" + url + "</loc>";
    }

    private static Map<String, JsonNode> items(LocalSpiderling local, LocalSite site, String batchId)
            throws Exception {
        Map<String, JsonNode> items = new TreeMap<>();
        LocalApi.get(local, "/batches/" + batchId + "/urls?limit=100").get("items").forEach(item -> items.put(
                item.path("kind").asText("page") + " " + item.get("url").asText().replace(site.baseUrl(), ""),
                item));
        return items;
    }

    private static String submitSitemaps(LocalSpiderling local, String... sitemaps) throws Exception {
        var options = JSON.createObjectNode();
        var named = options.putArray("sitemaps");
        for (String sitemap : sitemaps) {
            named.add(sitemap);
        }
        return LocalApi.submit(local, List.of(), options);
    }

    @Test
    void batch_whenItsSitemapsPassTheLimits_expectEachLimitReportedAndTheBatchComplete(EmbeddedAws aws,
            StackResources resources, @TempDir Path dir) throws Exception {
        try (LocalSites sites = LocalSites.start(1);
                LocalSpiderling local = LocalSpiderling.start(aws, resources,
                        LocalApi.withSampleClients(LocalSpiderling.Options.defaults())
                                .withConfig("spiderling.fetch.rate-overrides-file",
                                        sites.rateOverrides(dir, 20).toString())
                                .withConfig("spiderling.sitemaps.max-urls-per-sitemap", "3")
                                .withConfig("spiderling.sitemaps.max-bytes", "4096")
                                .withConfig("spiderling.sitemaps.max-per-index", "2")
                                .withConfig("spiderling.sitemaps.max-per-batch", "3"))) {
            LocalSite site = sites.site(0);
            site.respond("/robots.txt", 200, "text/plain", "User-agent: *\nAllow: /\n".getBytes(StandardCharsets.UTF_8));
            site.respond("/index.xml", 200, "application/xml", ("<?xml version=\"1.0\"?>\n"
                    + "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
                    + "  <sitemap><loc>" + site.url("/s1.xml") + "</loc></sitemap>\n"
                    + "  <sitemap><loc>" + site.url("/s2.xml") + "</loc></sitemap>\n"
                    + "  <sitemap><loc>" + site.url("/s3.xml") + "</loc></sitemap>\n"
                    + "</sitemapindex>\n").getBytes(StandardCharsets.UTF_8));
            site.respond("/s1.xml", 200, "application/xml", urlset(loc(site.url("/a/1")), loc(site.url("/a/2")),
                    loc(site.url("/a/3")), loc(site.url("/a/4")), loc(site.url("/a/5"))));
            site.respond("/s2.xml", 200, "application/xml", urlset(loc(site.url("/b/1"))));
            site.respond("/s3.xml", 200, "application/xml", urlset(loc(site.url("/never/1"))));
            site.respond("/big.xml", 200, "application/xml", urlset(java.util.stream.IntStream.range(0, 100)
                    .mapToObj(i -> loc(site.url("/big/" + i))).toArray(String[]::new)));
            for (int i = 1; i <= 4; i++) {
                site.respond("/c" + i + ".xml", 200, "application/xml", urlset(loc(site.url("/c/" + i))));
            }
            for (String page : List.of("/a/1", "/a/2", "/a/3", "/a/4", "/a/5", "/b/1", "/c/1", "/c/2", "/c/3",
                    "/c/4")) {
                site.page(page, "<title>" + page + "</title>");
            }

            // An index naming one sitemap more than an index may give, one of which lists more than a sitemap may.
            String indexBatch = submitSitemaps(local, site.url("/index.xml"));
            JsonNode status = LocalApi.awaitDone(local, indexBatch, Duration.ofSeconds(90));
            assertTrue(status.get("done").asBoolean(), status.toString());
            Map<String, JsonNode> items = items(local, site, indexBatch);
            System.out.println("[sitemap limits] " + items.values().stream().map(i -> i.path("kind").asText("page")
                    + " " + i.get("url").asText() + " " + i.get("state").asText() + " " + i.path("reason").asText()
                    + " " + i.path("detail").asText()).toList());
            assertEquals("an index of 2 sitemaps: 2 items, 0 duplicates, 0 refused; 1 left out"
                    + " (sitemap-limit-sitemaps-per-index)", items.get("sitemap /index.xml").get("detail").asText());
            assertEquals("listed 3 URLs, 0 refused, 2 left out (sitemap-limit-urls-per-sitemap): 3 items,"
                    + " 0 duplicates", items.get("sitemap /s1.xml").get("detail").asText());
            assertEquals(List.of("page /a/1", "page /a/2", "page /a/3", "page /b/1", "sitemap /index.xml",
                    "sitemap /s1.xml", "sitemap /s2.xml"), List.copyOf(items.keySet()));
            assertEquals(7, status.get("total").asInt(), status.toString());
            assertEquals(0, site.requestCount("/s3.xml") + site.requestCount("/a/4") + site.requestCount("/a/5"));

            // A sitemap larger than a sitemap may be.
            String bigBatch = submitSitemaps(local, site.url("/big.xml"));
            JsonNode bigStatus = LocalApi.awaitDone(local, bigBatch, Duration.ofSeconds(60));
            assertTrue(bigStatus.get("done").asBoolean(), bigStatus.toString());
            JsonNode big = items(local, site, bigBatch).get("sitemap /big.xml");
            assertEquals("sitemap-unreadable", big.get("reason").asText(), big.toString());
            assertEquals("sitemap-too-large: 4097 bytes; the limit is 4096", big.get("detail").asText());
            assertEquals(1, bigStatus.get("total").asInt(), "nothing of it taken: " + bigStatus);

            // Four sitemaps where a batch may read three: exactly one is refused, whichever comes last.
            String manyBatch = submitSitemaps(local, site.url("/c1.xml"), site.url("/c2.xml"), site.url("/c3.xml"),
                    site.url("/c4.xml"));
            JsonNode manyStatus = LocalApi.awaitDone(local, manyBatch, Duration.ofSeconds(60));
            assertTrue(manyStatus.get("done").asBoolean(), manyStatus.toString());
            Map<String, JsonNode> many = items(local, site, manyBatch);
            List<JsonNode> limited = many.values().stream()
                    .filter(i -> i.path("reason").asText().equals("sitemap-limit")).toList();
            assertEquals(1, limited.size(), many.toString());
            assertEquals("failed", limited.getFirst().get("state").asText());
            assertEquals("the batch has begun 3 sitemaps, its limit; this one's list was not taken in",
                    limited.getFirst().get("detail").asText());
            assertEquals(3, many.keySet().stream().filter(k -> k.startsWith("page ")).count(), many.toString());
            assertEquals(4 + 3, manyStatus.get("total").asInt(), manyStatus.toString());
        }
    }

    @Test
    void secondBatch_whenASitemapSaysAPageIsUnchangedSinceItsFreshCopy_expectItSkippedAndTheChangedOneFetched(
            EmbeddedAws aws, StackResources resources, @TempDir Path dir) throws Exception {
        try (LocalSites sites = LocalSites.start(1);
                LocalSpiderling local = LocalSpiderling.start(aws, resources,
                        LocalApi.withSampleClients(LocalSpiderling.Options.defaults())
                                .withConfig("spiderling.fetch.rate-overrides-file",
                                        sites.rateOverrides(dir, 20).toString()))) {
            LocalSite site = sites.site(0);
            site.respond("/robots.txt", 200, "text/plain", "User-agent: *\nAllow: /\n".getBytes(StandardCharsets.UTF_8));
            // A page the site says changes after any copy
            Instant later = Instant.now().plus(Duration.ofDays(1)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
            site.respond("/sitemap.xml", 200, "application/xml", urlset(
                    loc(site.url("/old")) + "<lastmod>2020-01-01</lastmod>",
                    loc(site.url("/new")) + "<lastmod>" + later + "</lastmod>",
                    loc(site.url("/none"))));
            for (String page : List.of("/old", "/new", "/none")) {
                site.page(page, "<title>" + page + "</title>");
            }
            String first = submitSitemaps(local, site.url("/sitemap.xml"));
            assertTrue(LocalApi.awaitDone(local, first, Duration.ofSeconds(60)).get("done").asBoolean());

            String second = submitSitemaps(local, site.url("/sitemap.xml"));
            JsonNode status = LocalApi.awaitDone(local, second, Duration.ofSeconds(60));

            assertTrue(status.get("done").asBoolean(), status.toString());
            Map<String, JsonNode> items = items(local, site, second);
            assertEquals("sitemap-lastmod", items.get("page /old").get("reason").asText(), items.toString());
            assertEquals("skipped", items.get("page /old").get("state").asText());
            assertEquals("fetched", items.get("page /new").get("reason").asText(), items.toString());
            assertEquals("fresh-copy", items.get("page /none").get("reason").asText(), items.toString());
            assertEquals(1, site.requestCount("/old"));
            assertEquals(2, site.requestCount("/new"));
            assertEquals(1, site.requestCount("/none"));
        }
    }
}
