package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.core.content.Hashing;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.StackResources;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Markdown of a page's main content, opt-in per batch ({@code "markdown": true}), through the whole pipeline: the
 * extract stage renders the body a batch asked for, and a later batch asking for the Markdown of a page a batch without
 * it fetched gets it from the stored copy, without asking the site again.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class MarkdownEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static String article(String title, String next) {
        return "<!DOCTYPE html><html lang='de-CH'><head><meta charset='utf-8'><title>" + title + " | Example News"
                + "</title></head><body><header><nav><a href='/'>Startseite</a> <a href='/sport'>Sport</a></nav>"
                + "</header><main><article><h1>" + title + "</h1>"
                + ("<p>Am Bahnhof und an der Bibliothek vorbei fliesst der Fluss, wo sich der Markt im Winter am"
                + " Hafen trifft und die Händler ihre Stände früh am Morgen aufbauen. ").repeat(5)
                + "Weiter zum <a href='" + next + "'>zweiten Teil</a>.</p><h2>Zahlen</h2><table><thead><tr>"
                + "<th>Jahr</th><th>Besucher</th></tr></thead><tbody><tr><td>2025</td><td>12000</td></tr></tbody>"
                + "</table></article></main><footer>Impressum und Datenschutz</footer></body></html>";
    }

    private static JsonNode markdownLink(LocalSpiderling local, String url) throws Exception {
        return LocalApi.get(local, "/urls/markdown?url=" + URLEncoder.encode(url, StandardCharsets.UTF_8));
    }

    private static String download(JsonNode link) throws Exception {
        HttpResponse<byte[]> response = HTTP.send(HttpRequest.newBuilder(URI.create(link.get("markdownUrl")
                .asText())).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, response.statusCode());
        assertEquals(link.get("sha256").asText(), Hashing.sha256Hex(response.body()), "stored under its hash");
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    @Test
    void batch_whenItAsksForMarkdown_expectTheMainContentOfEachPageAndAFreshCopyRenderedWithoutARequest(
            EmbeddedAws aws, StackResources resources) throws Exception {
        try (LocalSites sites = LocalSites.start(1);
                LocalSpiderling local = LocalSpiderling.start(aws, resources,
                        LocalApi.withSampleClients(LocalSpiderling.Options.defaults()))) {
            LocalSite site = sites.site(0);
            site.page("/markt", article("Der Markt am Hafen", "/markt/2"));
            site.page("/fluss", article("Der Fluss im Winter", "/fluss/2"));

            // A batch without Markdown fetches /fluss: its body is stored and extracted, with no Markdown.
            String plain = LocalApi.submit(local, List.of(site.url("/fluss")));
            assertTrue(LocalApi.awaitDone(local, plain, Duration.ofSeconds(60)).get("done").asBoolean());
            assertTrue(local.awaitS3Events(Duration.ofSeconds(30)), "extraction did not finish");
            HttpResponse<String> none = HTTP.send(LocalApi.request(local, "/urls/markdown?url="
                    + URLEncoder.encode(site.url("/fluss"), StandardCharsets.UTF_8)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(404, none.statusCode(), none.body());

            // A batch with Markdown: /markt is fetched and rendered by the extract stage; /fluss is a fresh copy.
            String batchId = LocalApi.submit(local, List.of(site.url("/markt"), site.url("/fluss")),
                    JSON.createObjectNode().put("markdown", true));
            JsonNode status = LocalApi.awaitDone(local, batchId, Duration.ofSeconds(60));
            assertTrue(status.get("done").asBoolean(), status.toString());
            assertTrue(status.get("markdown").asBoolean(), status.toString());
            assertTrue(local.awaitS3Events(Duration.ofSeconds(30)), "extraction did not finish");

            JsonNode markt = markdownLink(local, site.url("/markt"));
            String text = download(markt);
            assertTrue(text.contains("Der Markt am Hafen"), text);
            assertTrue(text.contains("[zweiten Teil](" + site.url("/markt/2") + ")"), text);
            assertTrue(text.contains("## Zahlen"), text);
            assertFalse(text.contains("Startseite") || text.contains("Impressum"), text);
            assertEquals("de-CH", markt.get("language").asText(), markt.toString());

            JsonNode fluss = markdownLink(local, site.url("/fluss"));
            assertTrue(download(fluss).contains("[zweiten Teil](" + site.url("/fluss/2") + ")"));
            assertEquals(1, site.requestCount("/fluss"), "the fresh copy was rendered, the site not asked again");
            assertEquals(fluss.get("sha256"), LocalApi.get(local, "/urls?url="
                    + URLEncoder.encode(site.url("/fluss"), StandardCharsets.UTF_8)).at("/markdown/sha256"));
        }
    }
}
