package io.spiderling.core.content;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class BucketKeysTest {

    private static final String SHA = "2a1b402420ef46577471cdc7409b0fa2c6a204db316e59ade2d805435489a067";

    @Test
    void content_whenValidSha_isPrefixedByFirstTwoHexChars() {
        assertEquals("content/2a/" + SHA, BucketKeys.content(SHA));
    }

    @Test
    void sha256OfContent_whenContentKey_returnsTheHashItWasMadeFrom() {
        assertEquals(Optional.of(SHA), BucketKeys.sha256OfContent(BucketKeys.content(SHA)));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "2a1b", SHA + "0", "2A1B402420EF46577471CDC7409B0FA2C6A204DB316E59ADE2D805435489A067",
            "2a1b402420ef46577471cdc7409b0fa2c6a204db316e59ade2d805435489a06g"})
    void content_whenNot64LowerCaseHexChars_throws(String urlHash) {
        assertThrows(IllegalArgumentException.class, () -> BucketKeys.content(urlHash));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "content/", "robots/2a/" + SHA, "content/2b/" + SHA, "content/2a/" + SHA + ".html",
            "content/2a/" + SHA + "/", "/content/2a/" + SHA, "content/2A/" + SHA, "content/2a/2a1b"})
    void sha256OfContent_whenNotAContentKey_isEmpty(String key) {
        assertEquals(Optional.empty(), BucketKeys.sha256OfContent(key));
    }

    @Test
    void capture_whenValidSha_isPrefixedLikeContent() {
        assertEquals("capture/2a/" + SHA, BucketKeys.capture(SHA));
    }

    @ParameterizedTest
    @ValueSource(strings = {"b1", "5f6fa9c4-aca7-43f4-bafa-2d6b4977e3a5", "q-0123abcd", "v1.txt"})
    void batchIdOfManifest_whenKeyFromManifestKey_returnsTheBatchId(String batchId) {
        assertEquals(Optional.of(batchId), BucketKeys.batchIdOfManifest(BucketKeys.manifest(batchId)));
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"", "manifests/.txt", "manifests/a/b.txt", "manifests/b1", "manifests/b1.txt.gz",
            "Manifests/b1.txt", "b1.txt", "/manifests/b1.txt", "content/2a/b1.txt"})
    void batchIdOfManifest_whenNotAManifestKey_isEmpty(String key) {
        assertEquals(Optional.empty(), BucketKeys.batchIdOfManifest(key));
    }

    @ParameterizedTest
    @CsvSource({"b1,txt", "5f6fa9c4-aca7-43f4-bafa-2d6b4977e3a5,jsonl", "v1.txt,txt"})
    void uploadOf_whenKeyFromUpload_returnsTheBatchIdAndExtension(String batchId, String extension) {
        assertEquals(Optional.of(new BucketKeys.Upload(batchId, extension)),
                BucketKeys.uploadOf(BucketKeys.upload(batchId, extension)));
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"", "uploads/b1", "uploads/.txt", "uploads/a/b.txt", "uploads/b1.TXT", "planned/b1.txt",
            "/uploads/b1.txt", "manifests/b1.txt"})
    void uploadOf_whenNotAnUploadKey_isEmpty(String key) {
        assertEquals(Optional.empty(), BucketKeys.uploadOf(key));
    }

    @Test
    void planned_whenUpload_keepsItsNameUnderPlanned() {
        assertEquals("planned/b1.jsonl", BucketKeys.planned("b1", "jsonl"));
    }
}
