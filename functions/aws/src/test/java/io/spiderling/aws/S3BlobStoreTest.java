package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.port.BlobStore.StoredBlob;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;

@ExtendWith(EmbeddedAwsExtension.class)
class S3BlobStoreTest {

    private final S3BlobStore store;

    S3BlobStoreTest(EmbeddedAws aws, StackResources res) {
        this.store = new S3BlobStore(aws.s3(), res.bucket());
    }

    @Test
    void get_whenPut_returnsSameBytesContentTypeAndMetadata() {
        // Every byte value, so any text decoding on the way would show.
        byte[] bytes = new byte[512];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        Map<String, String> metadata = Map.of("url", "https://example.com/a?b=1", "batch-id", "b-1", "status", "200");

        // Written without the optional space before the parameter: s3proxy's Jetty drops it, S3 keeps it verbatim.
        store.put("content/ab/abcdef", bytes, "text/html;charset=iso-8859-1", metadata);
        StoredBlob blob = store.get("content/ab/abcdef").orElseThrow();

        assertArrayEquals(bytes, blob.bytes());
        assertEquals("text/html;charset=iso-8859-1", blob.contentType());
        assertEquals(metadata, blob.metadata());
    }

    @Test
    void put_whenKeyExists_overwrites() {
        store.put("manifests/m-1.json", new byte[] {1}, "application/json", Map.of("v", "1"));

        store.put("manifests/m-1.json", new byte[] {2, 2}, "application/x-ndjson", Map.of("v", "2"));

        StoredBlob blob = store.get("manifests/m-1.json").orElseThrow();
        assertArrayEquals(new byte[] {2, 2}, blob.bytes());
        assertEquals("application/x-ndjson", blob.contentType());
        assertEquals(Map.of("v", "2"), blob.metadata());
    }

    @Test
    void get_whenKeyMissing_returnsEmpty() {
        assertEquals(Optional.empty(), store.get("content/never/written"));
    }

    @Test
    void exists_whenPutOrNot_tellsWhichWithoutDownloading() {
        store.put("manifests/exists.txt", new byte[] {1, 2}, "text/plain", Map.of());

        assertTrue(store.exists("manifests/exists.txt"));
        assertFalse(store.exists("manifests/absent.txt"));
    }

    @Test
    void get_whenBucketMissing_throwsInsteadOfReportingAMissingKey(EmbeddedAws aws, StackResources res) {
        S3BlobStore noBucket = new S3BlobStore(aws.s3(), res.prefix() + "-no-such-bucket");

        assertThrows(NoSuchBucketException.class, () -> noBucket.get("content/any"));
    }
}
