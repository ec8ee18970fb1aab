package io.spiderling.core.content;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The S3 key of a stored body, content-addressed: {@code content/<first 2 hex chars of its SHA-256>/<SHA-256>}.
 * Identical bytes fetched from several URLs (aliases, mirrors, a page fetched again unchanged) are stored once; the
 * two-character prefix spreads keys over 256 prefixes. See ADR 9.
 */
public final class ContentKey {

    public static final String PREFIX = "content/";
    /** Where wire captures go (see {@link io.spiderling.core.fetch.CaptureFormat}), keyed the same way. */
    public static final String CAPTURE_PREFIX = "capture/";

    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
    private static final int KEY_LENGTH = PREFIX.length() + 3 + 64;

    private ContentKey() {}

    /** @throws IllegalArgumentException unless {@code sha256} is 64 lower-case hex characters */
    public static String forSha256(String sha256) {
        if (!isSha256(sha256)) {
            throw new IllegalArgumentException("not a SHA-256 (64 lower-case hex characters): " + sha256);
        }
        return PREFIX + sha256.substring(0, 2) + "/" + sha256;
    }

    /** The key of a capture object whose bytes have this SHA-256: {@code capture/<2 hex>/<sha256>}. */
    public static String captureFor(String sha256) {
        return CAPTURE_PREFIX + forSha256(sha256).substring(PREFIX.length());
    }

    /** The SHA-256 a content key was made from; empty for anything {@link #forSha256} would not have produced. */
    public static Optional<String> sha256Of(String key) {
        if (key == null || key.length() != KEY_LENGTH || !key.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String sha256 = key.substring(KEY_LENGTH - 64);
        return isSha256(sha256) && key.equals(forSha256(sha256)) ? Optional.of(sha256) : Optional.empty();
    }

    private static boolean isSha256(String s) {
        return s != null && SHA256.matcher(s).matches();
    }
}
