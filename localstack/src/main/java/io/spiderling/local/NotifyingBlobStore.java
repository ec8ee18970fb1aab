package io.spiderling.local;

import io.spiderling.core.port.BlobStore;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * Raises an object-created notification after every successful put, as an S3 bucket notification does on AWS.
 * s3proxy has no notifications of its own, so the local stack adds them at this seam.
 */
final class NotifyingBlobStore implements BlobStore {

    private final BlobStore delegate;
    private final BiConsumer<String, Long> onCreated;

    NotifyingBlobStore(BlobStore delegate, BiConsumer<String, Long> onCreated) {
        this.delegate = delegate;
        this.onCreated = onCreated;
    }

    @Override
    public void put(String key, byte[] bytes, String contentType, Map<String, String> metadata) {
        delegate.put(key, bytes, contentType, metadata);
        onCreated.accept(key, (long) bytes.length);
    }

    @Override
    public boolean exists(String key) {
        return delegate.exists(key);
    }

    @Override
    public Optional<StoredBlob> get(String key) {
        return delegate.get(key);
    }
}
