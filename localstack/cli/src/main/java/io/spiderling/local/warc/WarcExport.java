package io.spiderling.local.warc;

import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.core.content.Hashing;
import io.spiderling.core.fetch.CaptureFormat;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcCompression;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.netpreserve.jwarc.WarcWriter;
import org.netpreserve.jwarc.Warcinfo;

/**
 * Writes fetched URLs' wire captures as a WARC/1.1 file, gzip-compressed one member per record ({@code .warc.gz}).
 * Every byte of a record's block comes from the capture object the fetch stage stored (docs/warc.md); nothing is
 * rebuilt from the metadata row.
 *
 * <ul>
 *   <li>The file starts with a {@code warcinfo} record.</li>
 *   <li>Per captured URL, a {@code request} record (the request as sent) and, linked to it by
 *       WARC-Concurrent-To, a {@code response} record (status line, headers and payload as received);</li>
 *   <li>or, in place of the response, a {@code revisit} record holding only the response head: profile
 *       server-not-modified for a 304, and identical-payload-digest when the payload has the digest of a response
 *       earlier in this file (WARC-Refers-To names it) or of the URL's previous capture ({@code refersToAt} in its
 *       record).</li>
 * </ul>
 *
 * Each record carries WARC-Date (the request's start), WARC-Target-URI, WARC-IP-Address, WARC-Block-Digest and, for
 * responses and revisits of identical payloads, WARC-Payload-Digest, all SHA-1 in base32. A URL without a capture is
 * skipped and counted, and so, unless the export is told to include it, is a page that asked not to be archived
 * ({@code noarchive} in its X-Robots-Tag or robots meta tags: {@code metadata.directives.noarchive} in its record;
 * ADR 17). Not thread-safe; close it to finish the file.
 */
public final class WarcExport implements Closeable {

    /** Reads a stored object's bytes by its key: empty when there is no such object. */
    @FunctionalInterface
    public interface ObjectReader {
        Optional<byte[]> read(String key) throws IOException;
    }

    /** What {@link #add} did with a URL's record. */
    public sealed interface Added {
        /** Records written, by WARC-Type, in order. */
        record Written(List<String> types) implements Added {}

        /** Nothing written. */
        record Skipped(SkipReason reason) implements Added {}
    }

    public enum SkipReason {
        /** The record has no capture: capture was off, or the fetch did not end in a 2xx or 304. */
        NO_CAPTURE,
        /** The record names a capture object that is not in the store. */
        CAPTURE_MISSING,
        /** The page asked not to be archived, and the export leaves such pages out. */
        NOARCHIVE
    }

    /** What the export does with a page whose directives say {@code noarchive}. */
    public enum Noarchive {
        /** Leave it out, as the page asked: the default. */
        LEAVE_OUT,
        /** Write it all the same: the user archives for a purpose the page's owner agreed to, or their own site. */
        INCLUDE
    }

    /** What was written so far. */
    public record Summary(int requests, int responses, int revisits, Map<SkipReason, Integer> skipped) {
        public Summary {
            skipped = Map.copyOf(skipped);
        }

        public int skipped(SkipReason reason) {
            return skipped.getOrDefault(reason, 0);
        }
    }

    private static final MessageVersion VERSION = MessageVersion.WARC_1_1;

    private final WarcWriter writer;
    private final ObjectReader objects;
    private final URI warcinfoId;
    private final Noarchive noarchive;
    /** The first full response of each payload digest in this file, for identical-payload revisits. */
    private final Map<String, Earlier> byPayload = new HashMap<>();
    private final Map<SkipReason, Integer> skipped = new EnumMap<>(SkipReason.class);
    private int requests;
    private int responses;
    private int revisits;

    private record Earlier(URI id, String targetUri, Instant date) {}

    private WarcExport(WarcWriter writer, ObjectReader objects, URI warcinfoId, Noarchive noarchive) {
        this.writer = writer;
        this.objects = objects;
        this.warcinfoId = warcinfoId;
        this.noarchive = noarchive;
    }

    /** {@link #create(Path, ObjectReader, Noarchive)} leaving out the pages that ask not to be archived. */
    public static WarcExport create(Path file, ObjectReader objects) throws IOException {
        return create(file, objects, Noarchive.LEAVE_OUT);
    }

    /**
     * Creates {@code file} (replacing any file there) and writes its warcinfo record.
     *
     * @param objects reads capture objects by key, from the deployment's bucket
     * @param noarchive whether pages that ask not to be archived are left out or written
     */
    public static WarcExport create(Path file, ObjectReader objects, Noarchive noarchive) throws IOException {
        Objects.requireNonNull(objects, "objects");
        Objects.requireNonNull(noarchive, "noarchive");
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        WarcWriter writer = new WarcWriter(channel, WarcCompression.GZIP);
        byte[] fields = ("software: spiderling\r\n"
                + "format: WARC File Format 1.1\r\n"
                + "conformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n"
                + "description: Wire captures of a Spiderling fetch; see docs/warc.md\r\n")
                .getBytes(StandardCharsets.UTF_8);
        Warcinfo info = new Warcinfo.Builder()
                .version(VERSION)
                .recordId(UUID.randomUUID())
                .date(Instant.now())
                .filename(file.getFileName().toString())
                .body(MediaType.parse("application/warc-fields"), fields)
                .blockDigest(digest(fields))
                .build();
        writer.write(info);
        return new WarcExport(writer, objects, info.id(), noarchive);
    }

    /**
     * Appends the records of one fetched URL.
     *
     * @param url the URL's record as {@code GET /urls?url=…} shows it; its {@code capture} object names the capture,
     *     and {@code metadata.directives.noarchive} whether the page asked not to be archived
     */
    public Added add(JsonNode url) throws IOException {
        JsonNode capture = url.path("capture");
        if (!capture.isObject() || !capture.hasNonNull("key")) {
            return skip(SkipReason.NO_CAPTURE);
        }
        if (noarchive == Noarchive.LEAVE_OUT && url.at("/metadata/directives/noarchive").asBoolean(false)) {
            return skip(SkipReason.NOARCHIVE);
        }
        Optional<byte[]> stored = objects.read(capture.get("key").asText());
        if (stored.isEmpty()) {
            return skip(SkipReason.CAPTURE_MISSING);
        }
        CaptureFormat.Parts parts = CaptureFormat.decode(stored.get());
        String target = capture.hasNonNull("targetUri") ? capture.get("targetUri").asText() : url.get("url").asText();
        Instant date = Instant.parse(capture.get("capturedAt").asText());
        // An address literal, so no name is looked up.
        Optional<InetAddress> ip = capture.hasNonNull("remoteIp") && !capture.get("remoteIp").asText().isEmpty()
                ? Optional.of(InetAddress.getByName(capture.get("remoteIp").asText())) : Optional.empty();
        boolean truncated = capture.path("truncated").asBoolean(false);
        Optional<Instant> refersToAt = capture.hasNonNull("refersToAt")
                ? Optional.of(Instant.parse(capture.get("refersToAt").asText())) : Optional.empty();

        UUID requestId = UUID.randomUUID();
        UUID responseId = UUID.randomUUID();
        URI responseUri = URI.create("urn:uuid:" + responseId);
        byte[] payload = parts.payload();
        String payloadDigest = Hashing.warcSha1(payload);
        Earlier earlier = payload.length == 0 || truncated ? null : byPayload.get(payloadDigest);

        WarcRequest.Builder request = new WarcRequest.Builder(target)
                .version(VERSION)
                .recordId(requestId)
                .date(date)
                .warcinfoId(warcinfoId)
                .concurrentTo(responseUri)
                .body(MediaType.HTTP_REQUEST, parts.request())
                .blockDigest(digest(parts.request()));
        ip.ifPresent(request::ipAddress);

        String second;
        if (parts.status() == 304 || earlier != null || refersToAt.isPresent()) {
            boolean notModified = parts.status() == 304;
            WarcRevisit.Builder revisit = new WarcRevisit.Builder(target, notModified
                    ? WarcRevisit.SERVER_NOT_MODIFIED_1_1 : WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1)
                    .version(VERSION)
                    .recordId(responseId)
                    .date(date)
                    .warcinfoId(warcinfoId)
                    .body(MediaType.HTTP_RESPONSE, parts.responseHead())
                    .blockDigest(digest(parts.responseHead()));
            if (!notModified) {
                revisit.payloadDigest(new WarcDigest(payloadDigest));
            }
            if (earlier != null && !notModified) {
                revisit.refersTo(earlier.id(), URI.create(earlier.targetUri()), earlier.date());
            } else {
                refersToAt.ifPresent(at -> revisit.setHeader("WARC-Refers-To-Target-URI", target)
                        .setHeader("WARC-Refers-To-Date", at.toString()));
            }
            ip.ifPresent(revisit::ipAddress);
            writer.write(request.build());
            writer.write(revisit.build());
            revisits++;
            second = "revisit";
        } else {
            WarcResponse.Builder response = new WarcResponse.Builder(target)
                    .version(VERSION)
                    .recordId(responseId)
                    .date(date)
                    .warcinfoId(warcinfoId)
                    .body(MediaType.HTTP_RESPONSE, parts.response())
                    .blockDigest(digest(parts.response()))
                    .payloadDigest(new WarcDigest(payloadDigest));
            if (truncated) {
                response.truncated(WarcTruncationReason.LENGTH);
            }
            ip.ifPresent(response::ipAddress);
            writer.write(request.build());
            writer.write(response.build());
            if (payload.length > 0 && !truncated) {
                byPayload.putIfAbsent(payloadDigest, new Earlier(responseUri, target, date));
            }
            responses++;
            second = "response";
        }
        requests++;
        return new Added.Written(List.of("request", second));
    }

    public Summary summary() {
        return new Summary(requests, responses, revisits, skipped);
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }

    private Added skip(SkipReason reason) {
        skipped.merge(reason, 1, Integer::sum);
        return new Added.Skipped(reason);
    }

    private static WarcDigest digest(byte[] block) {
        return new WarcDigest(Hashing.warcSha1(block));
    }
}
