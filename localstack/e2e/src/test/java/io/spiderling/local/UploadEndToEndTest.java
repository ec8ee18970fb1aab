package io.spiderling.local;

import static io.spiderling.local.LocalApi.awaitDone;
import static io.spiderling.local.LocalApi.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.RecordedRequest;
import io.spiderling.testkit.StackResources;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.nio.file.Path;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A manifest uploaded the way a client would: {@code POST /batches/uploads} on the local API with the sample event's
 * body, a PUT of a JSONL file to the presigned URL, then polling {@code GET /batches/{id}}. The manifest spans several
 * chunks, repeats URLs in other spellings within and across chunks, and holds lines that are not URLs.
 */
@ExtendWith(EmbeddedAwsExtension.class)
@Order(2) // started early: one of the longest (junit-platform.properties)
class UploadEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final int SITES = 3;
    private static final int PAGES = 150;
    private static final int CHUNK_BYTES = 16384;

    @Test
    void upload_whenJsonlManifestOverSeveralChunks_expectEachPageFetchedOnceAndExactCounts(EmbeddedAws aws,
            StackResources resources, @TempDir Path dir) throws Exception {
        try (LocalSites sites = LocalSites.start(SITES);
                LocalSpiderling local = LocalSpiderling.start(aws, resources, LocalApi.withSampleClients(LocalSpiderling.Options.defaults())
                        .withConfig("spiderling.uploads.chunk-bytes", String.valueOf(CHUNK_BYTES))
                        // Aragog's rate for its own sites; the default 1 per second would make this test minutes long.
                        .withConfig("spiderling.fetch.rate-overrides-file", sites.rateOverrides(dir, 10).toString()))) {
            StringBuilder manifest = new StringBuilder();
            Set<String> distinct = new HashSet<>();
            int duplicates = 0;
            for (int p = 0; p < PAGES; p++) {
                for (int s = 0; s < SITES; s++) {
                    LocalSite site = sites.site(s);
                    site.page(path(p), "<html><head><title>" + s + "/" + p + "</title></head></html>");
                    String url = site.url(path(p));
                    distinct.add(url);
                    manifest.append(p % 2 == 0 ? JSON.writeValueAsString(url)
                            : JSON.createObjectNode().put("url", url).toString()).append('\n');
                }
                if (p % 5 == 4) { // a respelling of a page a few lines up, in the same chunk
                    manifest.append(JSON.writeValueAsString(sites.site(0).url("/q/.." + path(p - 2)) + "#frag"))
                            .append('\n');
                    duplicates++;
                }
                if (p >= 100 && p % 10 == 0) { // and one from far back, in an earlier chunk
                    manifest.append(JSON.writeValueAsString(
                            "HTTP://" + sites.site(1).host() + ":" + sites.site(1).port() + path(p - 100)))
                            .append('\n');
                    duplicates++;
                }
            }
            manifest.append("\"ftp://files.example/a\"\n{\"href\": \"https://x.example/\"}\nnot json at all\n\n");
            byte[] bytes = manifest.toString().getBytes(StandardCharsets.UTF_8);
            assertTrue(bytes.length > 2 * CHUNK_BYTES, "spans at least three chunks: " + bytes.length);

            String request = PipelineEndToEndTest.sample("api-post-batches-uploads.json").get("body").asText();
            HttpResponse<String> created = HTTP.send(LocalApi.request(local, "/batches/uploads")
                    .header("Idempotency-Key", "upload-e2e-1")
                    .POST(HttpRequest.BodyPublishers.ofString(request)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, created.statusCode(), created.body());
            JsonNode upload = JSON.readTree(created.body());
            String batchId = upload.get("batchId").asText();
            assertEquals("awaiting-upload", get(local, "/batches/" + batchId).get("upload").get("state").asText());

            HttpResponse<String> put = HTTP.send(HttpRequest.newBuilder(URI.create(upload.get("uploadUrl").asText()))
                    .header("Content-Type", upload.get("headers").get("Content-Type").asText())
                    .PUT(HttpRequest.BodyPublishers.ofByteArray(bytes)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, put.statusCode(), put.body());

            JsonNode status = awaitDone(local, batchId, Duration.ofSeconds(180));

            assertTrue(status.get("done").asBoolean(), status.toString());
            assertEquals(distinct.size() + 3, status.get("total").asInt(), "every distinct URL and the 3 bad lines");
            assertEquals(duplicates, status.get("duplicates").asInt());
            assertEquals(distinct.size(), status.get("counts").get("fetched").asInt());
            assertEquals(3, status.get("counts").get("invalid").asInt());
            JsonNode planned = status.get("upload");
            assertEquals("planned", planned.get("state").asText());
            assertEquals(bytes.length, planned.get("bytes").asLong());
            assertEquals((bytes.length + CHUNK_BYTES - 1) / CHUNK_BYTES, planned.get("chunks").asInt());

            Map<String, Integer> requests = new HashMap<>();
            for (int s = 0; s < SITES; s++) {
                LocalSite site = sites.site(s);
                for (RecordedRequest r : site.requests().stream().filter(PipelineEndToEndTest::page).toList()) {
                    requests.merge(site.url(r.path()), 1, Integer::sum);
                }
            }
            assertEquals(distinct, requests.keySet(), "every page requested, nothing else");
            assertEquals(Set.of(1), new HashSet<>(requests.values()), "each page requested once");

            JsonNode invalid = get(local, "/batches/" + batchId + "/urls?state=invalid");
            List<String> reasons = new ArrayList<>();
            invalid.get("items").forEach(i -> reasons.add(i.get("detail").asText().replaceAll(":.*", "")));
            assertEquals(Set.of("unsupported scheme", "unknown field \"href\"", "not JSON"), new HashSet<>(reasons));
        }
    }

    /** Long paths, so a few hundred lines make a manifest of several 16 KiB chunks. */
    private static String path(int page) {
        return "/archive/2026/11/22/an-article-with-a-long-descriptive-slug-number-" + page;
    }


}
