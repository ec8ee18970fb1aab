package io.spiderling.local.nativecheck;

import io.spiderling.aws.DynamoDbBatchStore;
import io.spiderling.catalog.Secret;
import io.spiderling.aws.S3BlobStore;
import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.batch.UploadFormat;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.pipeline.ingest.Ingest;
import io.spiderling.core.url.UrlNormalizer;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.SampleClients;
import io.spiderling.testkit.StackResources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * Puts into one freshly provisioned resource set what the sample events refer to and no earlier event of the
 * pipeline creates, so that each handler runs its real path instead of answering "not found":
 * <ul>
 *   <li>the batch the sample events name ({@code manifests/<id>.txt} in {@code s3-manifest-created.json}), owned by
 *       the sample events' client, with its manifest in S3: the page of the local site and a second URL of it, and the
 *       local webhook receiver as its callback;</li>
 *   <li>the object {@code s3-upload-created.json} announces, as if the client had PUT its manifest to the upload URL
 *       that {@code api-post-batches-uploads.json} is answered with (that event's idempotency key gives the batch id
 *       the upload event names);</li>
 *   <li>the sample clients ({@code events/clients-sample.txt}) in the clients secret, as an operator puts the clients
 *       file there, so the notify stage signs with client-a's webhook secret read through Secrets Manager.</li>
 * </ul>
 * Both builds' resource sets are seeded by the same calls, so they start from the same state.
 */
public final class StackSeed {

    private StackSeed() {}

    public static void seed(EmbeddedAws aws, StackResources resources, Fixture fixture, SampleEvents events) {
        S3BlobStore blobs = new S3BlobStore(aws.s3(), aws.s3Presigner(), resources.bucket());
        Ingest ingest = Ingest.builder().normalizer(UrlNormalizer.create())
                .batches(new DynamoDbBatchStore(aws.dynamoDb(), resources.batchesTable())).blobs(blobs)
                .clock(Clock.systemUTC()).build();
        String manifestKey = events.objectKey("s3-manifest-created.json");
        String batchId = BucketKeys.batchIdOfManifest(manifestKey).orElseThrow(() -> new IllegalStateException(
                "s3-manifest-created.json does not name a manifest: " + manifestKey));
        Ingest.Result seeded = ingest.submit(batchId, SampleClients.CLIENT_A,
                List.of(fixture.pageUrl(), fixture.goneUrl()), BatchSource.HTTP,
                BatchOptions.builder().callbackUrl(fixture.hookUrl()).notices(BatchOptions.Notice.CHANGES)
                        .markdown(true).build());
        if (!(seeded instanceof Ingest.Result.Accepted)) {
            throw new IllegalStateException("seeding batch " + batchId + " was refused: " + seeded);
        }
        String uploadKey = events.objectKey("s3-upload-created.json");
        blobs.put(uploadKey, fixture.upload(), UploadFormat.JSONL.contentType(), Map.of());
        try {
            String clients = Files.readString(events.file("clients-sample.txt"));
            aws.secretsManager().putSecretValue(b -> b.secretId(resources.secret(Secret.CLIENTS))
                    .secretString(clients));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the sample clients", e);
        }
    }
}
