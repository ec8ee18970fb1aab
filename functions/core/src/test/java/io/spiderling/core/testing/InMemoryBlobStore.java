package io.spiderling.core.testing;

import io.spiderling.core.port.BlobStore;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** A {@link BlobStore} in a map. A put overwrites, as on S3. */
public final class InMemoryBlobStore implements BlobStore {

    private final CallLog log;
    private final Map<String, StoredBlob> blobs = new HashMap<>();

    public InMemoryBlobStore(CallLog log) {
        this.log = log;
    }

    @Override
    public void put(String key, byte[] bytes, String contentType, Map<String, String> metadata) {
        log.record("BlobStore", "put", key);
        blobs.put(key, new StoredBlob(bytes.clone(), contentType, metadata));
    }

    @Override
    public boolean exists(String key) {
        return blobs.containsKey(key);
    }

    @Override
    public Optional<StoredBlob> get(String key) {
        return Optional.ofNullable(blobs.get(key))
                .map(b -> new StoredBlob(b.bytes().clone(), b.contentType(), b.metadata()));
    }

    public boolean isEmpty() {
        return blobs.isEmpty();
    }
}
