package io.spiderling.core.sitemap;

import crawlercommons.mimetypes.MimeTypeDetector;
import io.spiderling.core.sitemap.SitemapOutcome.Unreadable.Why;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * The bytes of a body, decompressed within the byte limit, and the media type to parse them as.
 *
 * <p>crawler-commons decompresses gzip itself, but without a bound (a few kilobytes of gzip can hold gigabytes), and
 * only when the content type says gzip or, without a known type, the body starts with gzip's magic number. So gzip is
 * decompressed here, whenever the body starts with the magic number: a {@code .gz} sitemap served as
 * {@code application/xml} or {@code application/octet-stream} is common, and no XML or text sitemap starts with byte
 * {@code 0x1f}. The URL's {@code .gz} suffix says nothing crawler-commons or this class uses.
 *
 * <p>The media type is crawler-commons' sniffing of the (decompressed) bytes first, the declared type only when the
 * bytes start like no sitemap: crawler-commons trusts a declared type over the bytes, and a {@code text/plain} urlset
 * would then be read as a text sitemap of unparsable lines.
 */
final class SitemapBody {

    private static final byte GZIP_MAGIC_1 = 0x1f;
    private static final byte GZIP_MAGIC_2 = (byte) 0x8b;

    private SitemapBody() {}

    /** The body, decompressed if it is gzip. */
    static byte[] decode(byte[] body, int maxBytes) throws UnreadableSitemap {
        if (body.length > maxBytes) {
            throw new UnreadableSitemap(Why.TOO_LARGE, body.length + " bytes; the limit is " + maxBytes);
        }
        if (!gzip(body)) {
            return body;
        }
        byte[] plain = gunzip(body, maxBytes);
        if (plain.length > maxBytes) {
            throw new UnreadableSitemap(Why.TOO_LARGE, "more than " + maxBytes + " bytes once decompressed");
        }
        if (gzip(plain)) {
            throw new UnreadableSitemap(Why.BAD_GZIP, "gzip inside gzip");
        }
        return plain;
    }

    /**
     * What crawler-commons should parse {@code bytes} as: a type it sniffs, else the declared one.
     *
     * @param declared the response's Content-Type, parameters and all; null or blank when there was none
     */
    static String mediaType(byte[] bytes, String declared) throws UnreadableSitemap {
        MimeTypeDetector detector = new MimeTypeDetector();
        String sniffed = detector.detect(bytes);
        if (sniffed != null) {
            return sniffed;
        }
        String type = declared == null ? "" : declared.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (detector.isGzip(type)) {
            throw new UnreadableSitemap(Why.BAD_GZIP, "declared " + type + ", but the body is not gzip");
        }
        if (!detector.isXml(type) && !detector.isText(type)) {
            throw new UnreadableSitemap(Why.NOT_A_SITEMAP, "the body starts like no sitemap, and its content type is "
                    + (type.isEmpty() ? "missing" : type));
        }
        return type;
    }

    private static boolean gzip(byte[] bytes) {
        return bytes.length >= 2 && bytes[0] == GZIP_MAGIC_1 && bytes[1] == GZIP_MAGIC_2;
    }

    /** At most {@code maxBytes + 1} bytes, so that a bomb is noticed after reading just past the limit. */
    private static byte[] gunzip(byte[] body, int maxBytes) throws UnreadableSitemap {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return in.readNBytes(maxBytes + 1);
        } catch (IOException e) {
            throw new UnreadableSitemap(Why.BAD_GZIP, String.valueOf(e.getMessage()));
        }
    }
}
