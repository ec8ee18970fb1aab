package io.spiderling.core.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BoundedBodyTest {

    /** Ratio and grace that never bite, for the size tests. */
    private static final int NO_RATIO = Integer.MAX_VALUE;

    @Test
    void defaults_whenRead_areTenMibRatioHundredAfterOneMib() {
        BodyLimits limits = BodyLimits.defaults();

        assertEquals(10 * 1024 * 1024, limits.maxBytes());
        assertEquals(100, limits.maxDecompressionRatio());
        assertEquals(1024 * 1024, limits.ratioGraceBytes());
        assertEquals(20L * 1024 * 1024, limits.maxRawBytes());
        assertEquals(5, limits.withMaxBytes(5).maxBytes());
        assertEquals(100, limits.withMaxBytes(5).maxDecompressionRatio());
    }

    @ParameterizedTest(name = "{0}, {1}, {2}")
    @CsvSource({"0, 100, 0", "-1, 100, 0", "2147483647, 100, 0", "10, 0, 0", "10, 100, -1"})
    void bodyLimits_whenOutOfRange_throws(int maxBytes, int ratio, int grace) {
        assertThrows(IllegalArgumentException.class, () -> new BodyLimits(maxBytes, ratio, grace));
    }

    @Test
    void accept_whenUnderTheLimit_keepsEverything() {
        BoundedBody body = BoundedBody.create(BodyLimits.defaults());

        assertTrue(body.accept(bytes("<html>"), 6));
        assertTrue(body.accept(bytes("</html>"), 7));

        assertEquals("<html></html>", new String(body.toByteArray(), StandardCharsets.US_ASCII));
        assertEquals(13, body.size());
        assertEquals(13, body.decodedBytes());
        assertEquals(13, body.rawBytes());
        assertFalse(body.truncated());
        assertFalse(body.ratioExceeded());
        assertTrue(body.accepting());
    }

    @Test
    void accept_whenExactlyMaxBytes_isNotTruncated() {
        BoundedBody body = BoundedBody.create(new BodyLimits(10, NO_RATIO, 0));

        assertTrue(body.accept(bytes("0123456789"), 10));

        assertFalse(body.truncated());
        assertTrue(body.accept(new byte[0], 0), "an empty chunk at the limit is not more body");
        assertFalse(body.truncated());
    }

    @Test
    void accept_whenOneByteBeyondMaxBytes_keepsMaxBytesAndFlagsTruncated() {
        BoundedBody body = BoundedBody.create(new BodyLimits(10, NO_RATIO, 0));
        body.accept(bytes("0123456789"), 10);

        assertFalse(body.accept(bytes("a"), 1));

        assertTrue(body.truncated());
        assertFalse(body.accepting());
        assertEquals("0123456789", new String(body.toByteArray(), StandardCharsets.US_ASCII));
    }

    @Test
    void accept_whenChunkStraddlesMaxBytes_keepsExactlyTheFirstMaxBytes() {
        BoundedBody body = BoundedBody.create(new BodyLimits(10, NO_RATIO, 0));
        body.accept(bytes("abcdef"), 6);

        assertFalse(body.accept(bytes("xx0123456789yy"), 2, 8, 8));

        assertEquals("abcdef0123", new String(body.toByteArray(), StandardCharsets.US_ASCII));
        assertEquals(14, body.decodedBytes());
        assertTrue(body.truncated());
    }

    @Test
    void accept_afterAStop_ignoresLaterChunks() {
        BoundedBody body = BoundedBody.create(new BodyLimits(4, NO_RATIO, 0));
        body.accept(bytes("abcde"), 5);

        assertFalse(body.accept(bytes("fgh"), 3));
        assertFalse(body.accept(ByteBuffer.wrap(bytes("ijk")), 3));

        assertEquals("abcd", new String(body.toByteArray(), StandardCharsets.US_ASCII));
        assertEquals(5, body.decodedBytes());
        assertEquals(5, body.rawBytes());
    }

    @Test
    void accept_whenRatioIsHighWithinTheGrace_keepsAccepting() {
        BoundedBody body = BoundedBody.create(new BodyLimits(1000, 10, 100));

        assertTrue(body.accept(new byte[100], 1)); // ratio 100, but only 100 bytes decoded

        assertFalse(body.ratioExceeded());
    }

    @Test
    void accept_whenRatioExceedsTheMaxAfterTheGrace_flagsIt() {
        BoundedBody body = BoundedBody.create(new BodyLimits(1000, 10, 100));
        body.accept(new byte[100], 1);

        assertFalse(body.accept(new byte[1], 0)); // 101 decoded from 1 wire byte

        assertTrue(body.ratioExceeded());
        assertFalse(body.truncated());
        assertFalse(body.accepting());
        assertEquals(101, body.size());
    }

    @Test
    void accept_whenRatioIsExactlyTheMax_keepsAccepting() {
        BoundedBody body = BoundedBody.create(new BodyLimits(1000, 10, 0));

        assertTrue(body.accept(new byte[500], 50));

        assertFalse(body.ratioExceeded());
    }

    @Test
    void accept_whenNoWireBytesReportedAfterTheGrace_flagsTheRatio() {
        BoundedBody body = BoundedBody.create(new BodyLimits(1000, 10, 0));

        assertFalse(body.accept(new byte[1], 0));

        assertTrue(body.ratioExceeded());
    }

    @Test
    void accept_whenWireBytesPassTwiceMaxBytes_stopsAsTruncated() {
        BoundedBody body = BoundedBody.create(new BodyLimits(10, NO_RATIO, 0));

        assertTrue(body.accept(new byte[0], 20));
        assertFalse(body.accept(new byte[0], 1)); // a stream that decodes to nothing, forever

        assertTrue(body.truncated());
        assertEquals(0, body.size());
    }

    @Test
    void accept_whenByteBuffer_readsItsRemainingBytesWithoutMovingItsPosition() {
        BoundedBody body = BoundedBody.create(BodyLimits.defaults());
        ByteBuffer chunk = ByteBuffer.allocateDirect(8).put(bytes("xxabcdef")).position(2);

        assertTrue(body.accept(chunk, 6));

        assertEquals(2, chunk.position());
        assertEquals("abcdef", new String(body.toByteArray(), StandardCharsets.US_ASCII));
    }

    @Test
    void accept_whenByteBufferStraddlesMaxBytes_keepsTheFirstBytes() {
        BoundedBody body = BoundedBody.create(new BodyLimits(3, NO_RATIO, 0));

        assertFalse(body.accept(ByteBuffer.wrap(bytes("abcdef")), 6));

        assertEquals("abc", new String(body.toByteArray(), StandardCharsets.US_ASCII));
        assertTrue(body.truncated());
    }

    @Test
    void accept_whenNegativeWireBytes_throws() {
        BoundedBody body = BoundedBody.create(BodyLimits.defaults());

        assertThrows(IllegalArgumentException.class, () -> body.accept(new byte[1], -1));
    }

    @Test
    void accept_whenOffsetOutOfBounds_throws() {
        BoundedBody body = BoundedBody.create(BodyLimits.defaults());

        assertThrows(IndexOutOfBoundsException.class, () -> body.accept(new byte[4], 2, 3, 3));
    }

    @Test
    void accept_whenManyChunks_neverAllocatesMoreThanMaxBytes() {
        int maxBytes = 100_003; // not a power of two, so doubling would overshoot it
        BoundedBody body = BoundedBody.create(new BodyLimits(maxBytes, NO_RATIO, 0));
        byte[] chunk = new byte[1000];
        Arrays.fill(chunk, (byte) 'x');

        while (body.accept(chunk, chunk.length)) {
            assertTrue(body.capacity() <= maxBytes, "capacity " + body.capacity());
        }

        assertEquals(maxBytes, body.capacity());
        assertEquals(maxBytes, body.size());
        assertTrue(body.truncated());
    }

    @Test
    void accept_whenBodyIsSmall_allocatesLittle() {
        BoundedBody body = BoundedBody.create(BodyLimits.defaults());

        body.accept(bytes("tiny"), 4);

        assertTrue(body.capacity() <= 16 * 1024, "capacity " + body.capacity());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
