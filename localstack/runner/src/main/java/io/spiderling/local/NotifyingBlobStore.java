package io.spiderling.local;

import io.spiderling.core.port.BlobStore;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * Raises an object-created notification after every successful put, as an S3 bucket notification does on AWS.
 * s3proxy has no notifications of its own, so the local stack adds them at this seam. Objects written from outside
 * (a client's upload through a presigned URL) do not pass this seam; {@link UploadWatcher} finds those.
 */
final class NotifyingBlobStore implements BlobStore {

    private final BlobStore delegate;
    private final BiConsumer<String, Long> onCreated;
    private final Meter meter;

    NotifyingBlobStore(BlobStore delegate, BiConsumer<String, Long> onCreated, Meter meter) {
        this.delegate = delegate;
        this.onCreated = onCreated;
        this.meter = meter;
    }

    @Override
    public void put(String key, byte[] bytes, String contentType, Map<String, String> metadata) {
        delegate.put(key, bytes, contentType, metadata);
        onCreated.accept(key, (long) bytes.length);
    }

    /** Only a put that created the object raises the event, as on S3 (a refused conditional PUT creates nothing). */
    @Override
    public boolean putIfAbsent(String key, byte[] bytes, String contentType, Map<String, String> metadata) {
        boolean created = delegate.putIfAbsent(key, bytes, contentType, metadata);
        if (created) {
            onCreated.accept(key, (long) bytes.length);
        }
        return created;
    }

    @Override
    public boolean exists(String key) {
        return delegate.exists(key);
    }

    @Override
    public Optional<StoredBlob> get(String key) {
        return delegate.get(key);
    }

    @Override
    public Optional<Long> size(String key) {
        return delegate.size(key);
    }

    @Override
    public Optional<InputStream> open(String key, long from) {
        return delegate.open(key, from);
    }

    /** S3 raises ObjectCreated:Copy for a copy, so this does too. */
    @Override
    public boolean copy(String from, String to) {
        boolean copied = delegate.copy(from, to);
        if (copied) {
            // The size is the local stand-in's question (S3 puts it in the event), not the function's request.
            onCreated.accept(to, meter.standIn(() -> delegate.size(to)).orElse(0L));
        }
        return copied;
    }

    @Override
    public URI presignPut(String key, String contentType, Duration ttl) {
        meter.presigned("s3:PutObject", key);
        return delegate.presignPut(key, contentType, ttl);
    }

    @Override
    public URI presignGet(String key, Duration ttl) {
        meter.presigned("s3:GetObject", key);
        return delegate.presignGet(key, ttl);
    }
}
