package io.spiderling.core.net;

/**
 * How much of a response body the fetcher keeps, and how much decompression it tolerates on the way.
 *
 * <p>The size cap applies to the decoded body, because that is what is stored and parsed. The ratio cap stops a
 * decompression bomb long before the size cap would: a megabyte of gzip can inflate to a gigabyte, and decoding it only
 * to throw most of it away still costs the time. Ordinary text compresses 3 to 20 times; a page of whitespace a few
 * hundred times. The ratio is only judged after {@code ratioGraceBytes} of decoded output, because a short body's
 * ratio says little (a kilobyte of zeros compresses to a few dozen bytes and harms nobody).
 *
 * @param maxBytes the most decoded bytes kept; the rest is dropped and the body flagged truncated
 * @param maxDecompressionRatio the most decoded bytes per wire byte once {@code ratioGraceBytes} have been decoded
 * @param ratioGraceBytes decoded bytes accepted whatever their ratio
 */
public record BodyLimits(int maxBytes, int maxDecompressionRatio, int ratioGraceBytes) {

    public static final int DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
    public static final int DEFAULT_MAX_DECOMPRESSION_RATIO = 100;
    public static final int DEFAULT_RATIO_GRACE_BYTES = 1024 * 1024;

    /** The largest array the JVMs we run on will allocate. */
    static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

    private static final BodyLimits DEFAULTS =
            new BodyLimits(DEFAULT_MAX_BYTES, DEFAULT_MAX_DECOMPRESSION_RATIO, DEFAULT_RATIO_GRACE_BYTES);

    public BodyLimits {
        if (maxBytes < 1 || maxBytes > MAX_ARRAY_LENGTH) {
            throw new IllegalArgumentException("maxBytes must be between 1 and " + MAX_ARRAY_LENGTH + ": " + maxBytes);
        }
        if (maxDecompressionRatio < 1) {
            throw new IllegalArgumentException("maxDecompressionRatio must be at least 1: " + maxDecompressionRatio);
        }
        if (ratioGraceBytes < 0) {
            throw new IllegalArgumentException("ratioGraceBytes must not be negative: " + ratioGraceBytes);
        }
    }

    /** 10 MiB, a ratio of 100, judged after 1 MiB. */
    public static BodyLimits defaults() {
        return DEFAULTS;
    }

    public BodyLimits withMaxBytes(int newMaxBytes) {
        return new BodyLimits(newMaxBytes, maxDecompressionRatio, ratioGraceBytes);
    }

    /**
     * The most wire bytes read for one body: twice {@code maxBytes}. Without it a stream of empty deflate blocks, or
     * junk after the end of a gzip member, would be read until the timeout while decoding to nothing. Honest
     * compressed data is never much larger than its decoded form (deflate adds 5 bytes per 64 KiB stored block), so
     * the cap only bites where the decoded size cap would have bitten anyway.
     */
    public long maxRawBytes() {
        return 2L * maxBytes;
    }
}
