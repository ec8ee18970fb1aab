package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.port.BlobStore.StoredBlob;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

@ExtendWith(EmbeddedAwsExtension.class)
class S3BlobStoreTest {

    private final S3Presigner presigner;
    private final S3BlobStore store;

    S3BlobStoreTest(EmbeddedAws aws, StackResources res) {
        this.presigner = aws.s3Presigner();
        this.store = new S3BlobStore(aws.s3(), presigner, res.bucket());
    }

    @Test
    void open_whenFromAnOffset_streamsTheRestAndSizeTellsTheLength() throws IOException {
        store.put("planned/r.txt", "0123456789".getBytes(StandardCharsets.UTF_8), "text/plain", Map.of());

        try (InputStream in = store.open("planned/r.txt", 4).orElseThrow()) {
            assertEquals("456789", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        try (InputStream in = store.open("planned/r.txt", 0).orElseThrow()) {
            assertEquals("0123456789", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        assertEquals(Optional.of(10L), store.size("planned/r.txt"));
        assertEquals(Optional.empty(), store.size("planned/absent.txt"));
        assertEquals(Optional.empty(), store.open("planned/absent.txt", 0));
    }

    @Test
    void copy_whenSourceExists_copiesAndLaterWritesToTheSourceLeaveTheCopyAlone() {
        store.put("uploads/c.txt", new byte[] {1}, "text/plain", Map.of());

        assertTrue(store.copy("uploads/c.txt", "planned/c.txt"));
        store.put("uploads/c.txt", new byte[] {2}, "text/plain", Map.of());

        assertArrayEquals(new byte[] {1}, store.get("planned/c.txt").orElseThrow().bytes());
        assertFalse(store.copy("uploads/absent.txt", "planned/absent.txt"));
    }

    @Test
    void presignPut_whenClientPutsWithTheSignedContentType_storesTheObject() throws Exception {
        URI url = store.presignPut("uploads/p.jsonl", "application/x-ndjson", Duration.ofMinutes(5));
        byte[] body = "\"https://example.com/\"\n".getBytes(StandardCharsets.UTF_8);

        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(url)
                .header("Content-Type", "application/x-ndjson")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(200, response.statusCode(), response.body());
        assertArrayEquals(body, store.get("uploads/p.jsonl").orElseThrow().bytes());
        assertTrue(url.getQuery().contains("X-Amz-Signature="), "a SigV4 query signature: " + url);
    }

    @Test
    void get_whenPut_returnsSameBytesContentTypeAndMetadata() {
        // Every byte value, so any text decoding on the way would show.
        byte[] bytes = new byte[512];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        Map<String, String> metadata = Map.of("url", "https://example.com/a?b=1", "batch-id", "b-1", "status", "200");

        // Written without the optional space before the parameter: s3proxy's Jetty drops it, S3 keeps it verbatim.
        store.put("content/ab/abcdef", bytes, "text/html;charset=iso-8859-1", metadata);
        StoredBlob blob = store.get("content/ab/abcdef").orElseThrow();

        assertArrayEquals(bytes, blob.bytes());
        assertEquals("text/html;charset=iso-8859-1", blob.contentType());
        assertEquals(metadata, blob.metadata());
    }

    @Test
    void put_whenKeyExists_overwrites() {
        store.put("manifests/m-1.json", new byte[] {1}, "application/json", Map.of("v", "1"));

        store.put("manifests/m-1.json", new byte[] {2, 2}, "application/x-ndjson", Map.of("v", "2"));

        StoredBlob blob = store.get("manifests/m-1.json").orElseThrow();
        assertArrayEquals(new byte[] {2, 2}, blob.bytes());
        assertEquals("application/x-ndjson", blob.contentType());
        assertEquals(Map.of("v", "2"), blob.metadata());
    }

    @Test
    void putIfAbsent_whenKeyExists_keepsTheFirstObjectAndSaysSo() {
        String key = "content/cd/once-" + java.util.UUID.randomUUID();
        assertTrue(store.putIfAbsent(key, new byte[] {1}, "text/plain", Map.of("url", "first")));

        assertFalse(store.putIfAbsent(key, new byte[] {1}, "text/plain", Map.of("url", "second")));

        StoredBlob blob = store.get(key).orElseThrow();
        assertArrayEquals(new byte[] {1}, blob.bytes());
        assertEquals(Map.of("url", "first"), blob.metadata());
    }

    @Test
    void presignGet_whenFetchedWithoutCredentials_returnsTheStoredBytes() throws Exception {
        byte[] bytes = new byte[] {0, 1, 2, (byte) 0xFF};
        store.put("content/ef/presigned", bytes, "application/octet-stream", Map.of());
        URI url = store.presignGet("content/ef/presigned", Duration.ofMinutes(5));

        HttpResponse<byte[]> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(url).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());

        assertEquals(200, response.statusCode());
        assertArrayEquals(bytes, response.body());
        assertTrue(url.getQuery().contains("X-Amz-Signature="), "a SigV4 query signature: " + url);
    }

    @Test
    void get_whenKeyMissing_returnsEmpty() {
        assertEquals(Optional.empty(), store.get("content/never/written"));
    }

    @Test
    void exists_whenPutOrNot_tellsWhichWithoutDownloading() {
        store.put("manifests/exists.txt", new byte[] {1, 2}, "text/plain", Map.of());

        assertTrue(store.exists("manifests/exists.txt"));
        assertFalse(store.exists("manifests/absent.txt"));
    }

    @Test
    void get_whenBucketMissing_throwsInsteadOfReportingAMissingKey(EmbeddedAws aws, StackResources res) {
        S3BlobStore noBucket = new S3BlobStore(aws.s3(), presigner, res.prefix() + "-no-such-bucket");

        assertThrows(NoSuchBucketException.class, () -> noBucket.get("content/any"));
    }
}
