package io.spiderling.core.robots;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Cutting a robots.txt body to what is parsed and stored, and the gzip form it is stored in. Whatever is cut, the
 * rules are always parsed from the kept text, so a decision made from a stored entry matches the one made when it
 * was written.
 */
final class RobotsText {

    /** Refuses to inflate a stored body beyond this: a damaged or forged item must not exhaust the heap. */
    static final int MAX_INFLATED_BYTES = 16 * 1024 * 1024;

    private static final double SHRINK_MARGIN = 0.95;

    private RobotsText() {}

    /**
     * @param text the kept bytes, a prefix of the body that ends at a line end (or the whole body)
     * @param gzip {@code text} compressed, at most the stored limit; empty when {@code text} is
     * @param truncated some of the body was left out
     */
    record Kept(byte[] text, byte[] gzip, boolean truncated) {}

    /**
     * Keeps the first {@code maxBodyBytes} of {@code body}, then less if the compressed text exceeds
     * {@code maxStoredBytes}. A cut never splits a line: a line cut in the middle could turn {@code Disallow:
     * /private-archive} into {@code Disallow: /pri} or {@code Allow: /public/x} into {@code Allow: /p}, which are other
     * rules. A body at exactly the limit may already have been cut by the adapter, so its unterminated last line is
     * dropped too.
     */
    static Kept keep(byte[] body, int maxBodyBytes, int maxStoredBytes) {
        int length = body.length;
        if (length >= maxBodyBytes) {
            length = lineEnd(body, maxBodyBytes);
        }
        byte[] gzip = gzip(body, length);
        while (gzip.length > maxStoredBytes) {
            // compressed size grows about linearly with the text, so scale down, a little more than needed
            int target = (int) (length * SHRINK_MARGIN * maxStoredBytes / gzip.length);
            length = lineEnd(body, Math.min(target, length - 1));
            gzip = gzip(body, length);
        }
        return new Kept(Arrays.copyOf(body, length), gzip, length < body.length);
    }

    /** The largest length at most {@code limit} that ends right after a line break (or is zero). */
    private static int lineEnd(byte[] body, int limit) {
        for (int end = limit; end > 0; end--) {
            if (body[end - 1] == '\n' || body[end - 1] == '\r') {
                return end;
            }
        }
        return 0;
    }

    static byte[] gzip(byte[] bytes, int length) {
        if (length == 0) {
            return new byte[0];
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, length / 4));
        try (GZIPOutputStream gzip = new GZIPOutputStream(out) {
            {
                def.setLevel(Deflater.BEST_COMPRESSION);
            }
        }) {
            gzip.write(bytes, 0, length);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
        }
        return out.toByteArray();
    }

    /** @throws IllegalArgumentException if the bytes are not gzip or inflate beyond {@link #MAX_INFLATED_BYTES} */
    static byte[] gunzip(byte[] gzip) {
        if (gzip.length == 0) {
            return new byte[0];
        }
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            byte[] text = in.readNBytes(MAX_INFLATED_BYTES + 1);
            if (text.length > MAX_INFLATED_BYTES) {
                throw new IllegalArgumentException("stored robots.txt inflates beyond " + MAX_INFLATED_BYTES
                        + " bytes");
            }
            return text;
        } catch (IOException e) {
            throw new IllegalArgumentException("stored robots.txt is not valid gzip", e);
        }
    }

    static String utf8(byte[] text) {
        return new String(text, StandardCharsets.UTF_8);
    }
}
