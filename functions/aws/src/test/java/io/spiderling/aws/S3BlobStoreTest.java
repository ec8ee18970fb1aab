package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.port.BlobStore;
import io.spiderling.core.port.BlobStoreContract;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The port's contract ({@link BlobStoreContract}) and what only S3 can do: presigned URLs a client without credentials
 * uses, and a missing bucket told apart from a missing key.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class S3BlobStoreTest extends BlobStoreContract {

    private final EmbeddedAws aws;
    private final S3Presigner presigner;
    private final String bucket;

    S3BlobStoreTest(EmbeddedAws aws, StackResources res) {
        this.aws = aws;
        this.presigner = aws.s3Presigner();
        this.bucket = res.bucket();
    }

    @Override
    protected BlobStore createStore() {
        return new S3BlobStore(aws.s3(), presigner, bucket);
    }

    @Test
    void presignPut_whenClientPutsWithTheSignedContentType_storesTheObject() throws Exception {
        URI url = store.presignPut("uploads/p.jsonl", "application/x-ndjson", Duration.ofMinutes(5));
        byte[] body = "\"https://example.com/\"\n".getBytes(StandardCharsets.UTF_8);

        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(url)
                .header("Content-Type", "application/x-ndjson")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(200, response.statusCode(), response.body());
        assertArrayEquals(body, store.get("uploads/p.jsonl").orElseThrow().bytes());
        assertTrue(url.getQuery().contains("X-Amz-Signature="), "a SigV4 query signature: " + url);
    }

    @Test
    void presignGet_whenFetchedWithoutCredentials_returnsTheStoredBytes() throws Exception {
        byte[] bytes = new byte[] {0, 1, 2, (byte) 0xFF};
        store.put("content/ef/presigned", bytes, "application/octet-stream", Map.of());
        URI url = store.presignGet("content/ef/presigned", Duration.ofMinutes(5));

        HttpResponse<byte[]> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(url).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());

        assertEquals(200, response.statusCode());
        assertArrayEquals(bytes, response.body());
        assertTrue(url.getQuery().contains("X-Amz-Signature="), "a SigV4 query signature: " + url);
    }

    @Test
    void get_whenBucketMissing_throwsInsteadOfReportingAMissingKey(EmbeddedAws aws, StackResources res) {
        S3BlobStore noBucket = new S3BlobStore(aws.s3(), presigner, res.prefix() + "-no-such-bucket");

        assertThrows(NoSuchBucketException.class, () -> noBucket.get("content/any"));
    }
}
