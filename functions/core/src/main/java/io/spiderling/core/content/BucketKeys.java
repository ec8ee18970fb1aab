package io.spiderling.core.content;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The layout of the deployment's one bucket: every key a stage writes or recognises is made and read here, so the
 * stage that writes an object and the stage its event starts agree by construction, not by sharing a constant.
 *
 * <ul>
 *   <li>{@code manifests/<batch id>.txt}: a submitted batch's normalized URLs, one a line (ingest writes it, its
 *       event starts canonicalize);</li>
 *   <li>{@code uploads/<batch id>.<extension>}: a manifest the client PUT through a presigned URL, and
 *       {@code planned/<batch id>.<extension>}, the copy it is planned from, which the client cannot overwrite;</li>
 *   <li>{@code content/<2 hex>/<sha256>}: a fetched body, content-addressed: identical bytes fetched from several
 *       URLs (aliases, mirrors, a page fetched again unchanged) are stored once, and the two-character prefix spreads
 *       keys over 256 prefixes (ADR 9);</li>
 *   <li>{@code capture/<2 hex>/<sha256>}: a fetch's wire capture ({@link io.spiderling.core.fetch.CaptureFormat}),
 *       keyed the same way by the hash of the capture object;</li>
 *   <li>{@code markdown/<2 hex>/<sha256>.md}: the Markdown of a page's main content, for the batches that asked
 *       for it ({@code "markdown": true}), keyed by the hash of the Markdown itself: the same page at two URLs may
 *       render two ways (its links are made absolute), and each rendering is stored once.</li>
 * </ul>
 * The prefixes are also declared, with their retention, in the catalog's {@code BucketPrefix}; a test keeps the two
 * in step.
 */
public final class BucketKeys {

    public static final String MANIFESTS = "manifests/";
    public static final String UPLOADS = "uploads/";
    public static final String PLANNED = "planned/";
    public static final String CONTENT = "content/";
    public static final String CAPTURE = "capture/";
    public static final String MARKDOWN = "markdown/";

    private static final String MANIFEST_SUFFIX = ".txt";
    private static final Pattern UPLOAD = Pattern.compile("uploads/([A-Za-z0-9._-]{1,128})\\.([a-z]+)");
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
    private static final int CONTENT_KEY_LENGTH = CONTENT.length() + 3 + 64;

    private BucketKeys() {}

    /** The manifest of a submitted batch. */
    public static String manifest(String batchId) {
        return MANIFESTS + batchId + MANIFEST_SUFFIX;
    }

    /** The batch whose manifest {@code key} is; empty for anything {@link #manifest} would not have produced. */
    public static Optional<String> batchIdOfManifest(String key) {
        if (!key.startsWith(MANIFESTS) || !key.endsWith(MANIFEST_SUFFIX)) {
            return Optional.empty();
        }
        String id = key.substring(MANIFESTS.length(), key.length() - MANIFEST_SUFFIX.length());
        return id.isEmpty() || id.contains("/") ? Optional.empty() : Optional.of(id);
    }

    /** @param extension the upload format's extension, without the dot */
    public static String upload(String batchId, String extension) {
        return UPLOADS + batchId + "." + extension;
    }

    /** An upload key read back: whose batch, and the extension naming its format. */
    public record Upload(String batchId, String extension) {}

    /** What an upload key names; empty for any other key. */
    public static Optional<Upload> uploadOf(String key) {
        Matcher m = UPLOAD.matcher(key);
        return m.matches() ? Optional.of(new Upload(m.group(1), m.group(2))) : Optional.empty();
    }

    /** Where an upload is copied to be planned. */
    public static String planned(String batchId, String extension) {
        return PLANNED + batchId + "." + extension;
    }

    /** Where chunk {@code chunk} of the list of a sitemap a batch read is kept to be planned (ADR 19). */
    public static String sitemapList(String batchId, String sitemapKey, int chunk) {
        return PLANNED + batchId + "/sitemap-" + sitemapKey + "-" + chunk + ".jsonl";
    }

    /**
     * The key of a stored body whose bytes have this SHA-256.
     *
     * @throws IllegalArgumentException unless {@code sha256} is 64 lower-case hex characters
     */
    public static String content(String sha256) {
        return CONTENT + spread(sha256);
    }

    /** The SHA-256 a content key was made from; empty for anything {@link #content} would not have produced. */
    public static Optional<String> sha256OfContent(String key) {
        if (key == null || key.length() != CONTENT_KEY_LENGTH || !key.startsWith(CONTENT)) {
            return Optional.empty();
        }
        String sha256 = key.substring(CONTENT_KEY_LENGTH - 64);
        return isSha256(sha256) && key.equals(content(sha256)) ? Optional.of(sha256) : Optional.empty();
    }

    /**
     * The key of a capture object whose bytes have this SHA-256.
     *
     * @throws IllegalArgumentException unless {@code sha256} is 64 lower-case hex characters
     */
    public static String capture(String sha256) {
        return CAPTURE + spread(sha256);
    }

    /**
     * The key of a Markdown rendering whose UTF-8 bytes have this SHA-256.
     *
     * @throws IllegalArgumentException unless {@code sha256} is 64 lower-case hex characters
     */
    public static String markdown(String sha256) {
        return MARKDOWN + spread(sha256) + ".md";
    }

    private static String spread(String sha256) {
        if (!isSha256(sha256)) {
            throw new IllegalArgumentException("not a SHA-256 (64 lower-case hex characters): " + sha256);
        }
        return sha256.substring(0, 2) + "/" + sha256;
    }

    private static boolean isSha256(String s) {
        return s != null && SHA256.matcher(s).matches();
    }
}
