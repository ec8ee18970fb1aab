package io.spiderling.local.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.core.batch.BatchPlanner;
import io.spiderling.core.content.Hashing;
import io.spiderling.local.LocalSpiderling;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.SampleClients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code spiderling fetch}, run in-process: arguments in; what it prints and the files it writes checked. */
@ExtendWith(EmbeddedAwsExtension.class)
@org.junit.jupiter.api.parallel.ResourceLock(io.spiderling.local.PersistentStacks.POOL)
class CliFetchTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void fetch_whenEmbeddedStack_expectSummaryResultsForEveryLineAndBodiesUnderTheirSha256() throws Exception {
        try (LocalSites sites = LocalSites.demoSites(1, 3)) {
            LocalSite site = sites.site(0);
            String longUrl = site.url("/page/1?q=" + "x".repeat(9_000));
            List<String> input = List.of(site.url("/page/1"), site.url("/page/2"), site.url("/page/3"),
                    site.url("/page/1#again"), site.url("/missing"), longUrl);
            Path urls = Files.write(dir.resolve("urls.txt"), input);
            Path out = dir.resolve("out");

            CliRun run = CliRun.of("fetch", "--out", out.toString(), "--progress", "lines", "--warc", "--markdown",
                    "--data", dir.resolve("data").toString(), urls.toString());

            assertEquals(0, run.code(), run.toString());
            assertTrue(run.out().matches("(?s).*Batch \\S+ done after .*"), run.toString());
            assertTrue(run.out().matches("(?s).*By state:\\n  fetched\\s+3\\n  failed\\s+1\\n  rejected\\s+1\\n.*"),
                    run.toString());
            assertTrue(run.out().contains("Fetch time: p50 "), run.toString());
            assertTrue(run.out().matches("(?s).*Not fetched, by reason:\\n(\\s+1\\s+\\S+.*\\n){2}.*"), run.toString());
            assertTrue(run.out().matches("(?s).*\\n\\s+1\\s+http-error\\s+e\\.g\\. http 404\\n.*"), run.toString());
            assertTrue(run.out().matches("(?s).*\\n\\s+1\\s+invalid-url\\s+e\\.g\\. .*"), run.toString());
            assertTrue(run.err().matches("(?s).*\\[\\d+s\\] \\d+/4 ended.*"), run.toString());
            // The 9,000-character URL is shortened on screen, never printed whole.
            assertFalse(run.out().contains(longUrl) || run.err().contains(longUrl), run.toString());
            assertTrue(run.out().lines().allMatch(line -> line.length() <= 200), run.toString());

            List<String> lines = Files.readAllLines(out.resolve("results.jsonl"));
            assertEquals(input.size(), lines.size());
            assertFalse(Files.exists(out.resolve("input.txt")), "the user's file holds the input");
            for (int i = 0; i < input.size(); i++) {
                assertEquals(input.get(i), JSON.readTree(lines.get(i)).get("input").asText(), "line " + i);
            }
            JsonNode first = JSON.readTree(lines.get(0));
            assertEquals("fetched", first.get("state").asText());
            assertEquals("fetched", first.get("reason").asText());
            assertEquals(200, first.get("httpStatus").asInt());
            assertEquals("Site 1, page 1", first.path("metadata").path("title").asText(), lines.get(0));
            Path body = out.resolve(first.get("body").asText());
            assertEquals(first.get("contentSha256").asText(), sha256(Files.readAllBytes(body)));
            assertEquals(out.resolve("bodies").resolve(first.get("contentSha256").asText().substring(0, 2))
                    .resolve(first.get("contentSha256").asText()), body);
            // --markdown: each page's main content beside the bodies, under the hash of the Markdown, linked.
            assertTrue(run.out().contains("Markdown: " + out.resolve("markdown") + " (3 saved)"), run.toString());
            JsonNode markdown = first.get("markdown");
            Path markdownFile = out.resolve(markdown.get("file").asText());
            byte[] markdownBytes = Files.readAllBytes(markdownFile);
            assertEquals(markdown.get("sha256").asText(), sha256(markdownBytes));
            assertEquals(out.resolve("markdown").resolve(markdown.get("sha256").asText().substring(0, 2))
                    .resolve(markdown.get("sha256").asText() + ".md"), markdownFile);
            String text = new String(markdownBytes, java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(text.contains("[next page](" + site.url("/page/2") + ")"), text);
            assertTrue(text.contains("./spiderling fetch --demo --markdown"), text);
            assertTrue(text.contains("| Page | Links to |"), "the table: " + text);
            assertFalse(text.contains("About us") || text.contains("Demo footer"), text);
            assertEquals("en", markdown.get("language").asText(), lines.get(0));
            JsonNode again = JSON.readTree(lines.get(3));
            assertTrue(again.get("duplicate").asBoolean(), lines.get(3));
            assertEquals(first.get("contentSha256"), again.get("contentSha256"));
            JsonNode missing = JSON.readTree(lines.get(4));
            assertEquals("failed", missing.get("state").asText());
            assertEquals("http-error", missing.get("reason").asText());
            assertEquals(404, missing.get("httpStatus").asInt());
            assertEquals("http 404", missing.get("error").asText());
            JsonNode tooLong = JSON.readTree(lines.get(5));
            assertEquals("rejected", tooLong.get("state").asText());
            assertEquals("invalid-url", tooLong.get("reason").asText());
            assertTrue(tooLong.get("error").asText().contains("long"), lines.get(5));
            // Each page fetched once: the duplicate line shares the first line's fetch.
            assertEquals(1, site.requestCount("/page/1"));

            // --warc: the three pages' exchanges, read back record by record with their block digests checked.
            assertTrue(run.out().contains("WARC:    " + out.resolve("results.warc.gz") + " (3 request, 3 response, 0"
                    + " revisit records; 1 URLs without a capture)"), run.toString());
            List<String> types = new java.util.ArrayList<>();
            try (WarcReader reader = new WarcReader(out.resolve("results.warc.gz"))) {
                for (var next = reader.next(); next.isPresent(); next = reader.next()) {
                    WarcRecord record = next.get();
                    byte[] block = record.body().stream().readAllBytes();
                    assertEquals(MessageVersion.WARC_1_1, record.version(), record.toString());
                    assertEquals(Hashing.warcSha1(block), "sha1:" + record.blockDigest().orElseThrow().base32(),
                            record.toString());
                    types.add(record.type());
                }
            }
            // A second pass for the responses' HTTP messages: jwarc reads a block once.
            try (WarcReader reader = new WarcReader(out.resolve("results.warc.gz"))) {
                for (var next = reader.next(); next.isPresent(); next = reader.next()) {
                    if (next.get() instanceof WarcResponse response) {
                        assertEquals(200, response.http().status());
                        assertEquals("127.0.0.2", response.ipAddress().orElseThrow().getHostAddress());
                        assertEquals(Hashing.warcSha1(response.http().body().stream().readAllBytes()),
                                "sha1:" + response.payloadDigest().orElseThrow().base32());
                    }
                }
            }
            assertEquals(List.of("warcinfo", "request", "response", "request", "response", "request", "response"),
                    types);
        }
    }

    /**
     * ADR 19: {@code --sitemap} alone sends just the sitemap; the pipeline reads it, and results.jsonl has a line per
     * URL it listed (the refused one too) and one for the sitemap; the summary counts them.
     */
    @Test
    void fetch_whenOnlyASitemapIsGiven_expectALinePerListedUrlAndOneForTheSitemap() throws Exception {
        try (LocalSites sites = LocalSites.start(1)) {
            LocalSite site = sites.site(0);
            site.respond("/sitemap.xml", 200, "application/xml", ("<?xml version=\"1.0\"?>\n"
                    + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
                    + "<url><loc>" + site.url("/a") + "</loc></url><url><loc>" + site.url("/b") + "</loc></url>\n"
                    + "<url><loc>https://elsewhere.example/c</loc></url>\n</urlset>\n")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            site.page("/a", "<title>A</title>");
            site.page("/b", "<title>B</title>");
            Path out = dir.resolve("out");

            CliRun run = CliRun.of("fetch", "--out", out.toString(), "--progress", "none",
                    "--data", dir.resolve("data").toString(), "--sitemap", site.url("/sitemap.xml"));

            assertEquals(0, run.code(), run.toString());
            List<JsonNode> lines = new java.util.ArrayList<>();
            for (String line : Files.readAllLines(out.resolve("results.jsonl"))) {
                lines.add(JSON.readTree(line));
            }
            assertEquals(4, lines.size(), lines.toString());
            java.util.Map<String, JsonNode> byInput = new java.util.TreeMap<>();
            lines.forEach(line -> byInput.put(line.get("input").asText(), line));
            assertEquals("fetched", byInput.get(site.url("/a")).get("state").asText());
            assertEquals("A", byInput.get(site.url("/a")).at("/metadata/title").asText(), lines.toString());
            assertEquals("fetched", byInput.get(site.url("/b")).get("state").asText());
            JsonNode refused = byInput.get("https://elsewhere.example/c");
            assertEquals("invalid", refused.get("state").asText(), refused.toString());
            assertEquals("sitemap-other-site", refused.path("reason").asText(), refused.toString());
            assertTrue(refused.path("error").asText().startsWith("listed by " + site.url("/sitemap.xml")),
                    refused.toString());
            JsonNode sitemap = byInput.get(site.url("/sitemap.xml"));
            assertEquals("sitemap", sitemap.get("kind").asText());
            assertEquals("sitemap-expanded", sitemap.get("reason").asText());
            assertTrue(run.out().matches("(?s).*By state:\\n  fetched\\s+3\\n  invalid\\s+1\\n.*"), run.toString());
        }
    }

    /**
     * ADR 19: {@code --sitemaps-from-robots} sends the ask with the URLs; results.jsonl has the site's robots.txt and
     * the sitemap it names as sitemap lines, and a line for the URL the sitemap lists.
     */
    @Test
    void fetch_whenSitemapsFromRobots_expectLinesForTheRobotsTxtItsSitemapAndWhatItLists() throws Exception {
        try (LocalSites sites = LocalSites.start(1)) {
            LocalSite site = sites.site(0);
            site.respond("/robots.txt", 200, "text/plain", ("User-agent: *\nAllow: /\nSitemap: "
                    + site.url("/sitemap.xml") + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            site.respond("/sitemap.xml", 200, "application/xml", ("<?xml version=\"1.0\"?>\n"
                    + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
                    + "<url><loc>" + site.url("/listed") + "</loc></url>\n</urlset>\n")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            site.page("/", "<title>Home</title>");
            site.page("/listed", "<title>Listed</title>");
            Path urls = Files.write(dir.resolve("urls.txt"), List.of(site.url("/")));
            Path out = dir.resolve("out");

            CliRun run = CliRun.of("fetch", "--out", out.toString(), "--progress", "none",
                    "--data", dir.resolve("data").toString(), "--sitemaps-from-robots", urls.toString());

            assertEquals(0, run.code(), run.toString());
            java.util.Map<String, JsonNode> byInput = new java.util.TreeMap<>();
            for (String line : Files.readAllLines(out.resolve("results.jsonl"))) {
                JsonNode node = JSON.readTree(line);
                byInput.put(node.get("input").asText(), node);
            }
            assertEquals(java.util.Set.of(site.url("/"), site.url("/listed"), site.url("/robots.txt"),
                    site.url("/sitemap.xml")), byInput.keySet(), byInput.toString());
            assertEquals("fetched", byInput.get(site.url("/listed")).get("state").asText());
            JsonNode robots = byInput.get(site.url("/robots.txt"));
            assertEquals("sitemap", robots.get("kind").asText(), robots.toString());
            assertEquals("sitemap-expanded", robots.get("reason").asText(), robots.toString());
            assertEquals("sitemap", byInput.get(site.url("/sitemap.xml")).get("kind").asText());
            assertTrue(run.out().contains("also those each site's robots.txt names"), run.toString());
        }
    }

    /** ADR 17: a page's directives reach results.jsonl, and a noarchive page stays out of the WARC file. */
    @Test
    void fetch_whenAPageSaysNoarchive_expectItsDirectivesInTheResultsAndItLeftOutOfTheWarc() throws Exception {
        try (LocalSites sites = LocalSites.start(1)) {
            LocalSite site = sites.site(0);
            site.page("/open", "<html><head><title>Open</title></head><body>open</body></html>");
            site.serve("/closed", exchange -> {
                byte[] html = ("<html><head><title>Closed</title><meta name='robots' content='noindex'>"
                        + "<meta name='googlebot' content='nosnippet'></head><body>closed</body></html>")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
                exchange.getResponseHeaders().add("X-Robots-Tag", "otherbot: noindex");
                exchange.getResponseHeaders().add("X-Robots-Tag", "noarchive");
                exchange.sendResponseHeaders(200, html.length);
                exchange.getResponseBody().write(html);
                exchange.close();
            });
            Path urls = Files.write(dir.resolve("urls.txt"), List.of(site.url("/open"), site.url("/closed")));
            Path out = dir.resolve("out");

            CliRun run = CliRun.of("fetch", "--out", out.toString(), "--progress", "none", "--warc",
                    "--data", dir.resolve("data").toString(), urls.toString());

            assertEquals(0, run.code(), run.toString());
            List<String> lines = Files.readAllLines(out.resolve("results.jsonl"));
            JsonNode open = JSON.readTree(lines.get(0));
            JsonNode closed = JSON.readTree(lines.get(1));
            assertEquals("Open", open.at("/metadata/title").asText(), lines.get(0));
            assertTrue(open.at("/metadata/directives").isMissingNode(), lines.get(0));
            assertEquals(JSON.readTree("""
                    {"noindex":true,"nofollow":false,"noarchive":true,"nosnippet":false,"sources":["header","meta"]}
                    """), closed.at("/metadata/directives"), lines.get(1));
            assertTrue(run.out().contains("WARC:    " + out.resolve("results.warc.gz") + " (1 request, 1 response, 0"
                    + " revisit records; 0 URLs without a capture, 1 left out as noarchive (--include-noarchive"
                    + " writes them))"), run.toString());
            List<String> targets = new java.util.ArrayList<>();
            try (WarcReader reader = new WarcReader(out.resolve("results.warc.gz"))) {
                for (var next = reader.next(); next.isPresent(); next = reader.next()) {
                    if (next.get() instanceof org.netpreserve.jwarc.WarcTargetRecord target) {
                        targets.add(target.target());
                    }
                }
            }
            assertEquals(List.of(site.url("/open"), site.url("/open")), targets);
        }
    }

    /**
     * ADR 21 from the command line: a key made by {@code keys new}, and signing turned on with {@code --config};
     * every request the site saw, robots.txt included, is signed by that key for that directory.
     * {@code WebBotAuthEndToEndTest} holds the signatures themselves to the reference verifier.
     */
    @Test
    void fetch_whenSigningTurnedOnWithConfig_expectEveryRequestSignedByTheNewKey() throws Exception {
        Path keys = dir.resolve("signing-keys.json");
        CliRun made = CliRun.of("keys", "new", "--keys", keys.toString());
        assertEquals(0, made.code(), made.toString());
        String kid = io.spiderling.core.signing.KeyRing.parse(Files.readString(keys)).all().getFirst().keyId();
        String agent = "https://bot.example/.well-known/http-message-signatures-directory";
        try (LocalSites sites = LocalSites.start(1)) {
            LocalSite site = sites.site(0);
            site.page("/signed", "<html><head><title>Signed</title></head><body>signed</body></html>");
            Path urls = Files.write(dir.resolve("urls.txt"), List.of(site.url("/signed")));

            CliRun run = CliRun.of("fetch", "--out", dir.resolve("out").toString(), "--progress", "none",
                    "--memory", "--config", "spiderling.signing.enabled=true", "--config",
                    "spiderling.signing.agent=" + agent, "--config", "spiderling.signing.keys-file=" + keys,
                    urls.toString());

            assertEquals(0, run.code(), run.toString());
            assertEquals(2, site.requests().size(), site.requests().toString());
            for (var request : site.requests()) {
                assertEquals(java.util.Optional.of("\"" + agent + "\""), request.header("signature-agent"),
                        request.path());
                assertTrue(request.header("signature-input").orElseThrow().contains(";keyid=\"" + kid + "\";"),
                        request.path());
                assertTrue(request.header("signature").orElseThrow().startsWith("sig1=:"), request.path());
            }
        }
    }

    @Test
    void fetch_whenSigningTurnedOnWithoutItsAgent_expectUsageSayingWhatItNeeds() throws Exception {
        Path urls = Files.write(dir.resolve("urls.txt"), List.of("http://127.0.0.2:1/"));

        CliRun run = CliRun.of("fetch", "--progress", "none", "--memory", "--config",
                "spiderling.signing.enabled=true", urls.toString());

        assertEquals(ExitCode.USAGE.code(), run.code(), run.toString());
        assertTrue(run.err().contains("the stack refused its configuration (--config): spiderling.signing.enabled"
                + " needs spiderling.signing.agent"), run.toString());
    }

    @Test
    void fetch_whenServeRunsOnTheDataFolder_expectItsApiUsedRatherThanASecondStack() throws Exception {
        Path data = dir.resolve("served");
        try (LocalSites sites = LocalSites.demoSites(1, 1);
                Target.Embedded served = Target.Embedded.start(0, false, java.util.Optional.of(data), java.util.Map.of())) {
            String url = sites.site(0).url("/page/1");
            Path out = dir.resolve("served-out");

            CliRun run = CliRun.withStdin(url + "\n", "fetch", "--data", data.toString(), "--out", out.toString(),
                    "--progress", "none", "-");

            assertEquals(0, run.code(), run.toString());
            assertTrue(run.out().contains("Submitting 1 URLs to the embedded stack served at "
                    + served.spiderling().apiUri()), run.toString());
            assertFalse(run.err().contains("Starting the embedded stack"), run.toString());
            JsonNode line = JSON.readTree(Files.readAllLines(out.resolve("results.jsonl")).getFirst());
            assertEquals("fetched", line.get("state").asText());
            assertTrue(Files.exists(out.resolve(line.get("body").asText())), "bodies of a local stack are saved");
            // Standard input is gone after the run: what it sent is kept beside the results.
            assertEquals(List.of(url), Files.readAllLines(out.resolve("input.txt")));
            assertTrue(run.out().contains("Input:   " + out.resolve("input.txt") + " (the 1 lines submitted)"),
                    run.toString());
        }
    }

    @Test
    void fetchStatusGetCancel_whenEndpoint_expectTheDeployedApiUsedAndNoBodiesByDefault(EmbeddedAws aws)
            throws Exception {
        try (LocalSites sites = LocalSites.demoSites(1, 2);
                LocalSpiderling local = LocalSpiderling.start(aws, aws.provision("cli-remote"),
                        LocalSpiderling.Options.defaults().withConfig(LocalSpiderling.CLIENTS_FILE,
                                SampleClients.file().toString()))) {
            String endpoint = local.apiUri().toString();
            Path urls = Files.write(dir.resolve("urls.txt"),
                    List.of(sites.site(0).url("/page/1"), sites.site(0).url("/page/2")));
            Path out = dir.resolve("remote");

            CliRun fetch = CliRun.of("fetch", "--endpoint", endpoint, "--token", SampleClients.TOKEN_A,
                    "--out", out.toString(), "--progress", "none", urls.toString());

            assertEquals(0, fetch.code(), fetch.toString());
            assertTrue(fetch.out().contains("Bodies:  not downloaded (--bodies to download them)"), fetch.toString());
            assertFalse(Files.exists(out.resolve("bodies")));
            List<String> lines = Files.readAllLines(out.resolve("results.jsonl"));
            assertEquals(2, lines.size());
            String batchId = fetch.out().lines().filter(l -> l.startsWith("Batch ")).findFirst().orElseThrow()
                    .split(" ")[1];

            CliRun status = CliRun.of("status", "--endpoint", endpoint, "--token", SampleClients.TOKEN_A, batchId);
            assertEquals(0, status.code(), status.toString());
            assertTrue(status.out().contains("Batch " + batchId + ": done, 2/2 ended (fetched 2)"), status.toString());

            CliRun get = CliRun.of("get", "--endpoint", endpoint, "--token", SampleClients.TOKEN_A,
                    sites.site(0).url("/page/2"));
            assertEquals(0, get.code(), get.toString());
            assertEquals("fetched", JSON.readTree(get.out()).get("state").asText());

            CliRun cancel = CliRun.of("cancel", "--endpoint", endpoint, "--token", SampleClients.TOKEN_A, batchId);
            assertEquals(0, cancel.code(), cancel.toString());
            assertTrue(cancel.out().contains("had already finished"), cancel.toString());

            CliRun unknown = CliRun.of("status", "--endpoint", endpoint, "--token", SampleClients.TOKEN_A, "nope");
            assertEquals(ExitCode.NOT_FOUND.code(), unknown.code(), unknown.toString());

            CliRun badToken = CliRun.of("status", "--endpoint", endpoint, "--token", "wrong", batchId);
            assertEquals(ExitCode.AUTH.code(), badToken.code(), badToken.toString());
            assertTrue(badToken.err().contains("refused the credentials (401"), badToken.toString());
        }
    }

    @Test
    void fetch_whenOverTenThousandUrls_expectTheUploadPathAndOnTimeoutEveryLineStillWritten(EmbeddedAws aws)
            throws Exception {
        try (LocalSpiderling local = LocalSpiderling.start(aws, aws.provision("cli-upload"),
                LocalSpiderling.Options.defaults().withConfig(LocalSpiderling.CLIENTS_FILE,
                        SampleClients.file().toString()))) {
            // A site that refuses connections: its robots.txt is unreachable, so nothing ends before the timeout.
            // Planning 10,001 URLs takes about 6 s here and longer on a loaded CI machine; 15 s leaves room for the
            // progress line that names the unreachable robots.txt.
            int closed;
            try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1,
                    java.net.InetAddress.getByName("127.0.0.9"))) {
                closed = socket.getLocalPort();
            }
            List<String> input = java.util.stream.IntStream.rangeClosed(0, BatchPlanner.MAX_URLS)
                    .mapToObj(i -> "http://127.0.0.9:" + closed + "/p/" + i).toList();
            Path urls = Files.write(dir.resolve("many.txt"), input);
            Path out = dir.resolve("many");
            String endpoint = local.apiUri().toString();

            CliRun fetch = CliRun.of("fetch", "--endpoint", endpoint, "--token", SampleClients.TOKEN_A,
                    "--out", out.toString(), "--progress", "lines", "--timeout", "15", urls.toString());

            assertEquals(ExitCode.TIMEOUT.code(), fetch.code(), fetch.toString());
            assertTrue(fetch.out().contains("Submitting 10,001 URLs to " + endpoint + "/ (as an uploaded manifest)"),
                    fetch.toString());
            assertTrue(fetch.err().contains("did not finish within 15 s"), fetch.toString());
            // The progress line says what the batch waits on, as GET /batches/{id} does.
            assertTrue(fetch.err().contains("127.0.0.9: robots.txt unreachable"), fetch.toString());
            List<String> lines = Files.readAllLines(out.resolve("results.jsonl"));
            assertEquals(input.size(), lines.size());
            assertFalse(Files.exists(out.resolve("input.txt")), "the user's file holds the input");
            assertTrue(lines.stream().allMatch(l -> l.contains("\"state\":\"queued\"")), lines.get(0));
            String batchId = fetch.out().lines().filter(l -> l.startsWith("Batch ")).findFirst().orElseThrow()
                    .split(" ")[1];

            CliRun cancel = CliRun.of("cancel", "--endpoint", endpoint, "--token", SampleClients.TOKEN_A, batchId);
            assertEquals(0, cancel.code(), cancel.toString());
            assertTrue(cancel.out().contains("Batch " + batchId + " cancelled"), cancel.toString());
        }
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
