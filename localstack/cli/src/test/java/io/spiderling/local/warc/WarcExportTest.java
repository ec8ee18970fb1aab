package io.spiderling.local.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spiderling.core.fetch.CaptureFormat;
import io.spiderling.core.fetch.WireExchange;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcTargetRecord;

/**
 * ADR 17: a page that asks not to be archived stays out of the WARC file unless the export is told to include it.
 * The captures are real capture objects, and the file is read back with jwarc.
 */
class WarcExportTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String OPEN = "http://127.0.0.2:8080/open";
    private static final String CLOSED = "http://127.0.0.2:8080/closed";

    @TempDir
    Path dir;

    private final Map<String, byte[]> objects = Map.of("capture/open", capture("/open", "open page"),
            "capture/closed", capture("/closed", "closed page"));

    @Test
    void add_whenThePageSaysNoarchive_leavesItOutAndCountsIt() throws Exception {
        Path file = dir.resolve("out.warc.gz");
        WarcExport.Summary summary;
        try (WarcExport export = WarcExport.create(file, key -> Optional.ofNullable(objects.get(key)))) {
            assertEquals(new WarcExport.Added.Written(List.of("request", "response")),
                    export.add(record(OPEN, "capture/open", false)));
            assertEquals(new WarcExport.Added.Skipped(WarcExport.SkipReason.NOARCHIVE),
                    export.add(record(CLOSED, "capture/closed", true)));
            summary = export.summary();
        }

        assertEquals(1, summary.skipped(WarcExport.SkipReason.NOARCHIVE));
        assertEquals(List.of(OPEN, OPEN), targets(file));
    }

    @Test
    void add_whenToldToIncludeNoarchive_writesThePageToo() throws Exception {
        Path file = dir.resolve("out.warc.gz");
        try (WarcExport export = WarcExport.create(file, key -> Optional.ofNullable(objects.get(key)),
                WarcExport.Noarchive.INCLUDE)) {
            export.add(record(OPEN, "capture/open", false));
            assertEquals(new WarcExport.Added.Written(List.of("request", "response")),
                    export.add(record(CLOSED, "capture/closed", true)));
            assertEquals(0, export.summary().skipped(WarcExport.SkipReason.NOARCHIVE));
        }

        assertEquals(List.of(OPEN, OPEN, CLOSED, CLOSED), targets(file));
    }

    @Test
    void add_whenThePageSaysOnlyNone_writesIt() throws Exception {
        Path file = dir.resolve("out.warc.gz");
        ObjectNode none = record(CLOSED, "capture/closed", false);
        ((ObjectNode) none.at("/metadata/directives")).put("noindex", true).put("nofollow", true);
        try (WarcExport export = WarcExport.create(file, key -> Optional.ofNullable(objects.get(key)))) {
            assertEquals(new WarcExport.Added.Written(List.of("request", "response")), export.add(none));
        }

        assertEquals(List.of(CLOSED, CLOSED), targets(file));
    }

    /** A URL's record as GET /urls shows it: its capture and the page's directives. */
    private static ObjectNode record(String url, String key, boolean noarchive) {
        ObjectNode record = JSON.createObjectNode().put("url", url);
        record.putObject("capture").put("key", key).put("targetUri", url).put("remoteIp", "127.0.0.2")
                .put("capturedAt", "2026-11-28T10:00:00Z").put("payloadDigest", "sha1:unused");
        ObjectNode directives = record.putObject("metadata").putObject("directives").put("noindex", false)
                .put("nofollow", false).put("noarchive", noarchive).put("nosnippet", false);
        directives.putArray("sources").add("header");
        return record;
    }

    private static byte[] capture(String path, String body) {
        byte[] payload = body.getBytes(StandardCharsets.UTF_8);
        return CaptureFormat.encode(WireExchange.builder()
                .request(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.2:8080\r\n\r\n").getBytes(StandardCharsets.US_ASCII))
                .statusLine("HTTP/1.1 200 OK")
                .responseHeaders(List.of(new WireExchange.Header("Content-Type", "text/plain"),
                        new WireExchange.Header("Content-Length", String.valueOf(payload.length))))
                .remoteIp("127.0.0.2").payload(payload).payloadTruncated(false).build());
    }

    /** The target URI of every request and response record, in order. */
    private static List<String> targets(Path file) throws Exception {
        List<String> targets = new ArrayList<>();
        try (WarcReader reader = new WarcReader(FileChannel.open(file))) {
            for (WarcRecord record : reader) {
                if (record instanceof WarcTargetRecord target) {
                    targets.add(target.target());
                }
            }
        }
        return targets;
    }
}
