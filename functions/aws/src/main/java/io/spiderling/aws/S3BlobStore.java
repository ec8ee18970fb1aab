package io.spiderling.aws;

import io.spiderling.core.port.BlobStore;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/** {@link BlobStore} on one S3 bucket. Metadata travels as S3 user metadata (lower-case keys). */
public final class S3BlobStore implements BlobStore {

    private final S3Client s3;
    private final String bucket;

    public S3BlobStore(S3Client s3, String bucket) {
        this.s3 = s3;
        this.bucket = bucket;
    }

    @Override
    public void put(String key, byte[] bytes, String contentType, Map<String, String> metadata) {
        s3.putObject(b -> b.bucket(bucket).key(key).contentType(contentType).metadata(metadata),
                RequestBody.fromBytes(bytes));
    }

    @Override
    public boolean exists(String key) {
        try {
            s3.headObject(b -> b.bucket(bucket).key(key));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        }
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
}
