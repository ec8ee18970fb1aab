package io.spiderling.local;

import io.spiderling.core.content.BucketKeys;
import java.util.HashSet;
import java.util.Set;
import java.util.function.BiConsumer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * S3's notification for an object a client PUT through a presigned URL, locally: s3proxy raises none, and the upload
 * bypasses the pipeline's blob store, so the runner lists {@code uploads/} on every sweep and raises one event per new
 * object version (key and ETag), as S3 raises one per PUT.
 */
final class UploadWatcher {

    private final S3Client s3;
    private final String bucket;
    private final BiConsumer<String, Long> onCreated;
    /** Upload keys with their ETag; a few per batch, so it stays small for any local run. */
    private final Set<String> seen = new HashSet<>();

    UploadWatcher(S3Client s3, String bucket, BiConsumer<String, Long> onCreated) {
        this.s3 = s3;
        this.bucket = bucket;
        this.onCreated = onCreated;
    }

    void poll() {
        for (S3Object object : s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(BucketKeys.UPLOADS))
                .contents()) {
            if (seen.add(object.key() + "\n" + object.eTag())) {
                onCreated.accept(object.key(), object.size());
            }
        }
    }
}
