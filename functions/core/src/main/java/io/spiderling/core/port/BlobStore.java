package io.spiderling.core.port;

import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** Object storage for manifests and fetched bodies. Keys are deterministic, so a retried put overwrites. */
public interface BlobStore {

    void put(String key, byte[] bytes, String contentType, Map<String, String> metadata);

    /**
     * Writes the object only if no object exists at {@code key}, atomically, so two writers of the same
     * content-addressed key cannot both believe they created it. Returns false when one existed.
     */
    boolean putIfAbsent(String key, byte[] bytes, String contentType, Map<String, String> metadata);

    boolean exists(String key);

    /** Empty when the key does not exist (for example an S3 event for an object deleted since). */
    Optional<StoredBlob> get(String key);

    /** The object's size in bytes; empty when it does not exist. */
    Optional<Long> size(String key);

    /**
     * Streams the object from byte {@code from} to its end, so a large manifest is read without holding it. Empty when
     * the key does not exist. The caller closes the stream, and may close it before the end.
     */
    Optional<InputStream> open(String key, long from);

    /** Copies an object within the store. Returns false when {@code from} does not exist. */
    boolean copy(String from, String to);

    /**
     * A URL that lets its holder PUT one object at {@code key} with the given Content-Type until {@code ttl} has
     * passed, without credentials of their own.
     */
    URI presignPut(String key, String contentType, Duration ttl);

    /** A URL that lets its holder GET the object at {@code key} until {@code ttl} has passed. */
    URI presignGet(String key, Duration ttl);

    record StoredBlob(byte[] bytes, String contentType, Map<String, String> metadata) {
        public StoredBlob {
            metadata = Map.copyOf(metadata);
        }
    }
}
