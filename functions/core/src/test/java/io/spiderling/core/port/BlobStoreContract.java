package io.spiderling.core.port;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.port.BlobStore.StoredBlob;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * What {@link BlobStore}'s javadoc promises, run against every implementation. Implementations may share one bucket
 * between the tests of a class, so each test writes keys under a folder named after the test. Presigned URLs are
 * the adapter's own: only a real endpoint can honour them.
 */
public abstract class BlobStoreContract {

    protected BlobStore store;
    private String folder;

    /** A store for one test; it may hold other tests' objects. */
    protected abstract BlobStore createStore();

    @BeforeEach
    void createStoreAndNameKeys(TestInfo test) {
        store = createStore();
        folder = Contracts.nameOf(test) + "/";
    }

    @Test
    void get_whenPut_returnsSameBytesContentTypeAndMetadata() {
        // Every byte value, so any text decoding on the way would show.
        byte[] bytes = new byte[512];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        Map<String, String> metadata = Map.of("url", "https://example.com/a?b=1", "batch-id", "b-1", "status", "200");

        store.put(key("content/ab/abcdef"), bytes, "text/html;charset=iso-8859-1", metadata);
        StoredBlob blob = store.get(key("content/ab/abcdef")).orElseThrow();

        assertArrayEquals(bytes, blob.bytes());
        assertEquals("text/html;charset=iso-8859-1", blob.contentType());
        assertEquals(metadata, blob.metadata());
    }

    @Test
    void get_whenKeyMissing_returnsEmpty() {
        assertEquals(Optional.empty(), store.get(key("content/never/written")));
    }

    @Test
    void put_whenKeyExists_overwrites() {
        store.put(key("m-1.json"), new byte[] {1}, "application/json", Map.of("v", "1"));

        store.put(key("m-1.json"), new byte[] {2, 2}, "application/x-ndjson", Map.of("v", "2"));

        StoredBlob blob = store.get(key("m-1.json")).orElseThrow();
        assertArrayEquals(new byte[] {2, 2}, blob.bytes());
        assertEquals("application/x-ndjson", blob.contentType());
        assertEquals(Map.of("v", "2"), blob.metadata());
    }

    @Test
    void putIfAbsent_whenKeyExists_keepsTheFirstObjectAndSaysSo() {
        assertTrue(store.putIfAbsent(key("once"), new byte[] {1}, "text/plain", Map.of("url", "first")));

        assertFalse(store.putIfAbsent(key("once"), new byte[] {2}, "text/plain", Map.of("url", "second")));

        StoredBlob blob = store.get(key("once")).orElseThrow();
        assertArrayEquals(new byte[] {1}, blob.bytes());
        assertEquals(Map.of("url", "first"), blob.metadata());
    }

    @Test
    void putIfAbsent_whenAPutWroteTheKey_refuses() {
        store.put(key("put-first"), new byte[] {1}, "text/plain", Map.of());

        assertFalse(store.putIfAbsent(key("put-first"), new byte[] {2}, "text/plain", Map.of()));

        assertArrayEquals(new byte[] {1}, store.get(key("put-first")).orElseThrow().bytes());
    }

    @Test
    void exists_whenPutOrNot_tellsWhich() {
        store.put(key("exists.txt"), new byte[] {1, 2}, "text/plain", Map.of());

        assertTrue(store.exists(key("exists.txt")));
        assertFalse(store.exists(key("absent.txt")));
    }

    @Test
    void open_whenFromAnOffset_streamsTheRestAndSizeTellsTheLength() throws IOException {
        store.put(key("r.txt"), "0123456789".getBytes(StandardCharsets.UTF_8), "text/plain", Map.of());

        try (InputStream in = store.open(key("r.txt"), 4).orElseThrow()) {
            assertEquals("456789", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        try (InputStream in = store.open(key("r.txt"), 0).orElseThrow()) {
            assertEquals("0123456789", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        assertEquals(Optional.of(10L), store.size(key("r.txt")));
        assertEquals(Optional.empty(), store.size(key("absent.txt")));
        assertEquals(Optional.empty(), store.open(key("absent.txt"), 0));
    }

    @Test
    void copy_whenSourceExists_copiesAndLaterWritesToTheSourceLeaveTheCopyAlone() {
        store.put(key("uploads/c.txt"), new byte[] {1}, "text/plain", Map.of("v", "1"));

        assertTrue(store.copy(key("uploads/c.txt"), key("planned/c.txt")));
        store.put(key("uploads/c.txt"), new byte[] {2}, "text/plain", Map.of());

        StoredBlob copy = store.get(key("planned/c.txt")).orElseThrow();
        assertArrayEquals(new byte[] {1}, copy.bytes());
        assertEquals("text/plain", copy.contentType());
        assertEquals(Map.of("v", "1"), copy.metadata());
        assertFalse(store.copy(key("uploads/absent.txt"), key("planned/absent.txt")));
        assertFalse(store.exists(key("planned/absent.txt")));
    }

    /** A key of this test. */
    protected String key(String name) {
        return folder + name;
    }
}
