package io.spiderling.core.testing;

import io.spiderling.core.port.BlobStore;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** A {@link BlobStore} in a map. A put overwrites, as on S3. */
public class InMemoryBlobStore implements BlobStore {

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
    public boolean putIfAbsent(String key, byte[] bytes, String contentType, Map<String, String> metadata) {
        log.record("BlobStore", "putIfAbsent", key);
        return blobs.putIfAbsent(key, new StoredBlob(bytes.clone(), contentType, metadata)) == null;
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

    @Override
    public Optional<Long> size(String key) {
        return Optional.ofNullable(blobs.get(key)).map(b -> (long) b.bytes().length);
    }

    @Override
    public Optional<InputStream> open(String key, long from) {
        log.record("BlobStore", "open", key + " " + from);
        return Optional.ofNullable(blobs.get(key)).map(b -> {
            int start = (int) Math.min(from, b.bytes().length);
            return new ByteArrayInputStream(b.bytes(), start, b.bytes().length - start);
        });
    }

    @Override
    public boolean copy(String from, String to) {
        log.record("BlobStore", "copy", from + " " + to);
        StoredBlob blob = blobs.get(from);
        if (blob == null) {
            return false;
        }
        blobs.put(to, blob);
        return true;
    }

    /** Not a usable URL: it names the key, so a test can {@link #put} what the client would upload. */
    @Override
    public URI presignPut(String key, String contentType, Duration ttl) {
        return URI.create("memory://blobs/" + key + "?ttl=" + ttl);
    }

    @Override
    public URI presignGet(String key, Duration ttl) {
        return URI.create("memory://blobs/" + key + "?get&ttl=" + ttl);
    }

    public boolean isEmpty() {
        return blobs.isEmpty();
    }
}
