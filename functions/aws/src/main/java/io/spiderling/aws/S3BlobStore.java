package io.spiderling.aws;

import io.spiderling.core.port.BlobStore;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/** {@link BlobStore} on one S3 bucket. Metadata travels as S3 user metadata (lower-case keys). */
public final class S3BlobStore implements BlobStore {

    private static final int PRECONDITION_FAILED = 412;
    private static final int CONFLICT = 409;

    private final S3Client s3;
    private final S3Presigner presigner;
    private final String bucket;

    public S3BlobStore(S3Client s3, S3Presigner presigner, String bucket) {
        this.s3 = s3;
        this.presigner = presigner;
        this.bucket = bucket;
    }

    @Override
    public void put(String key, byte[] bytes, String contentType, Map<String, String> metadata) {
        s3.putObject(b -> b.bucket(bucket).key(key).contentType(contentType).metadata(metadata),
                RequestBody.fromBytes(bytes));
    }

    /**
     * A PUT with {@code If-None-Match: *}; S3 answers 412 when the key exists (409 if a concurrent PUT won). The SDK
     * retries a PUT whose answer it did not get, and that retry meets the object its first attempt created; so a 412
     * on an object carrying exactly this write's metadata is this write's own success, not another writer's.
     */
    @Override
    public boolean putIfAbsent(String key, byte[] bytes, String contentType, Map<String, String> metadata) {
        try {
            s3.putObject(b -> b.bucket(bucket).key(key).contentType(contentType).metadata(metadata).ifNoneMatch("*"),
                    RequestBody.fromBytes(bytes));
            return true;
        } catch (S3Exception e) {
            if (e.statusCode() == PRECONDITION_FAILED || e.statusCode() == CONFLICT) {
                return ownWrite(key, metadata);
            }
            throw e;
        }
    }

    private boolean ownWrite(String key, Map<String, String> metadata) {
        try {
            return !metadata.isEmpty() && metadata.equals(s3.headObject(b -> b.bucket(bucket).key(key)).metadata());
        } catch (NoSuchKeyException e) {
            return false;
        }
    }

    @Override
    public boolean exists(String key) {
        return size(key).isPresent();
    }

    @Override
    public Optional<StoredBlob> get(String key) {
        try {
            ResponseBytes<GetObjectResponse> object = s3.getObjectAsBytes(b -> b.bucket(bucket).key(key));
            GetObjectResponse response = object.response();
            return Optional.of(new StoredBlob(object.asByteArray(), response.contentType(), response.metadata()));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<Long> size(String key) {
        try {
            return Optional.of(s3.headObject(b -> b.bucket(bucket).key(key)).contentLength());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    /** A ranged GET; S3 refuses a range that starts at or past the end, so the caller keeps {@code from} inside. */
    @Override
    public Optional<InputStream> open(String key, long from) {
        try {
            return Optional.of(s3.getObject(b -> b.bucket(bucket).key(key).range(from > 0 ? "bytes=" + from + "-" : null)));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    @Override
    public boolean copy(String from, String to) {
        try {
            s3.copyObject(b -> b.sourceBucket(bucket).sourceKey(from).destinationBucket(bucket).destinationKey(to));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        }
    }

    @Override
    public URI presignPut(String key, String contentType, Duration ttl) {
        return URI.create(presigner.presignPutObject(b -> b.signatureDuration(ttl)
                        .putObjectRequest(p -> p.bucket(bucket).key(key).contentType(contentType)))
                .url().toString());
    }

    @Override
    public URI presignGet(String key, Duration ttl) {
        return URI.create(presigner.presignGetObject(b -> b.signatureDuration(ttl)
                        .getObjectRequest(g -> g.bucket(bucket).key(key)))
                .url().toString());
    }
}
