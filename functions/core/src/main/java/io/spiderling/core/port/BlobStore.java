package io.spiderling.core.port;

import java.util.Map;
import java.util.Optional;

/** Object storage for manifests and fetched bodies. Keys are deterministic, so a retried put overwrites. */
public interface BlobStore {

    void put(String key, byte[] bytes, String contentType, Map<String, String> metadata);

    boolean exists(String key);

    /** Empty when the key does not exist (for example an S3 event for an object deleted since). */
    Optional<StoredBlob> get(String key);

    record StoredBlob(byte[] bytes, String contentType, Map<String, String> metadata) {
        public StoredBlob {
            metadata = Map.copyOf(metadata);
        }
    }
}
