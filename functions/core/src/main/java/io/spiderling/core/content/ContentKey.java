package io.spiderling.core.content;

import java.util.Optional;
import java.util.regex.Pattern;

/** The S3 key of a URL's body: {@code content/<first 2 hex chars of the URL hash>/<URL hash>}. */
public final class ContentKey {

    public static final String PREFIX = "content/";

    private static final Pattern URL_HASH = Pattern.compile("[0-9a-f]{64}");
    private static final int KEY_LENGTH = PREFIX.length() + 3 + 64;

    private ContentKey() {}

    /** @throws IllegalArgumentException unless {@code urlHash} is 64 lower-case hex characters */
    public static String forUrlHash(String urlHash) {
        if (!isUrlHash(urlHash)) {
            throw new IllegalArgumentException("not a URL hash (64 lower-case hex characters): " + urlHash);
        }
        return PREFIX + urlHash.substring(0, 2) + "/" + urlHash;
    }

    /** The URL hash a content key was made from; empty for anything {@link #forUrlHash} would not have produced. */
    public static Optional<String> urlHashOf(String key) {
        if (key == null || key.length() != KEY_LENGTH || !key.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String urlHash = key.substring(KEY_LENGTH - 64);
        return isUrlHash(urlHash) && key.equals(forUrlHash(urlHash)) ? Optional.of(urlHash) : Optional.empty();
    }

    private static boolean isUrlHash(String s) {
        return s != null && URL_HASH.matcher(s).matches();
    }
}
