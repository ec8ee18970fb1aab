package io.spiderling.core.net;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * A response body collected chunk by chunk that never holds more than {@link BodyLimits#maxBytes()}: it keeps exactly
 * the first {@code maxBytes} decoded bytes and stops accepting once a limit is crossed, so the adapter can stop
 * reading (and cancel the request) instead of downloading a body only to drop it.
 *
 * <p>Each chunk comes with the number of wire bytes consumed to produce it, since the previous chunk; for an
 * identity-encoded body that is the chunk's length, and for a compressed one it may be zero for the second and later
 * pieces decoded from one wire chunk. The wire count is what lets it notice a decompression bomb, and a stream that
 * never decodes to anything.
 *
 * <p>It stops, and keeps what it has, when:
 * <ul>
 *   <li>a decoded byte beyond {@code maxBytes} is offered: {@link #truncated()};
 *   <li>more than {@link BodyLimits#maxRawBytes()} wire bytes are reported: {@link #truncated()} too, since the body
 *       was cut before its end;
 *   <li>after {@code ratioGraceBytes} of decoded output, decoded bytes exceed {@code maxDecompressionRatio} times the
 *       wire bytes: {@link #ratioExceeded()}. What was kept is then a prefix of a bomb, and the adapter should
 *       report the fetch as refused rather than store it.
 * </ul>
 *
 * <p>The buffer grows by doubling up to {@code maxBytes}, so a small page costs a small array. One instance per
 * response; not thread-safe.
 */
public final class BoundedBody {

    private static final int INITIAL_CAPACITY = 16 * 1024;

    private final BodyLimits limits;
    private byte[] buffer = new byte[0];
    private int size;
    private long decodedBytes;
    private long rawBytes;
    private boolean truncated;
    private boolean ratioExceeded;

    private BoundedBody(BodyLimits limits) {
        this.limits = limits;
    }

    public static BoundedBody create(BodyLimits limits) {
        return new BoundedBody(Objects.requireNonNull(limits, "limits"));
    }

    public BodyLimits limits() {
        return limits;
    }

    /** {@link #accept(byte[], int, int, long)} with the whole array. */
    public boolean accept(byte[] decoded, long rawBytesConsumed) {
        return accept(decoded, 0, decoded.length, rawBytesConsumed);
    }

    /**
     * Takes the next decoded bytes.
     *
     * @param rawBytesConsumed wire bytes consumed since the previous call; zero or more
     * @return whether more is wanted; false from the first chunk that crosses a limit on, and later chunks are
     *     ignored
     */
    public boolean accept(byte[] decoded, int offset, int length, long rawBytesConsumed) {
        Objects.checkFromIndexSize(offset, length, decoded.length);
        if (!count(length, rawBytesConsumed)) {
            return false;
        }
        int kept = keep(length);
        System.arraycopy(decoded, offset, buffer, size, kept);
        size += kept;
        return judge();
    }

    /**
     * Takes the decoded bytes between the buffer's position and limit, without moving its position.
     *
     * @see #accept(byte[], int, int, long)
     */
    public boolean accept(ByteBuffer decoded, long rawBytesConsumed) {
        int length = decoded.remaining();
        if (!count(length, rawBytesConsumed)) {
            return false;
        }
        int kept = keep(length);
        decoded.get(decoded.position(), buffer, size, kept);
        size += kept;
        return judge();
    }

    /** Whether the body is still being collected: no limit has been crossed. */
    public boolean accepting() {
        return !truncated && !ratioExceeded;
    }

    /** Bytes were dropped: decoded ones beyond {@code maxBytes}, or wire ones beyond {@code maxRawBytes}. */
    public boolean truncated() {
        return truncated;
    }

    /** The body decoded to more than {@code maxDecompressionRatio} times its wire size. */
    public boolean ratioExceeded() {
        return ratioExceeded;
    }

    /** Decoded bytes kept; at most {@code maxBytes}. */
    public int size() {
        return size;
    }

    /** Decoded bytes offered while accepting, including those dropped from the chunk that crossed {@code maxBytes}. */
    public long decodedBytes() {
        return decodedBytes;
    }

    /** Wire bytes reported while accepting. */
    public long rawBytes() {
        return rawBytes;
    }

    /** A copy of the bytes kept. */
    public byte[] toByteArray() {
        return Arrays.copyOf(buffer, size);
    }

    /** The allocated capacity, for tests of the memory bound. */
    int capacity() {
        return buffer.length;
    }

    private boolean count(int length, long rawBytesConsumed) {
        if (rawBytesConsumed < 0) {
            throw new IllegalArgumentException("rawBytesConsumed must not be negative: " + rawBytesConsumed);
        }
        if (!accepting()) {
            return false;
        }
        decodedBytes += length;
        rawBytes += rawBytesConsumed;
        return true;
    }

    /** How many of {@code length} new bytes fit, with the buffer grown to hold them. */
    private int keep(int length) {
        int kept = (int) Math.min(length, (long) limits.maxBytes() - size);
        if (kept < length) {
            truncated = true;
        }
        int needed = size + kept;
        if (needed > buffer.length) {
            long doubled = Math.max(INITIAL_CAPACITY, 2L * buffer.length);
            buffer = Arrays.copyOf(buffer, (int) Math.min(limits.maxBytes(), Math.max(needed, doubled)));
        }
        return kept;
    }

    private boolean judge() {
        if (rawBytes > limits.maxRawBytes()) {
            truncated = true;
        }
        if (decodedBytes > limits.ratioGraceBytes()
                && decodedBytes > (long) limits.maxDecompressionRatio() * rawBytes) {
            ratioExceeded = true;
        }
        return accepting();
    }
}
