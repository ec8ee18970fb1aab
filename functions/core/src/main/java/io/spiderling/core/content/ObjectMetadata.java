package io.spiderling.core.content;

/**
 * The names of the S3 user metadata written on stored objects. The fetch stage writes them; the extract stage reads a
 * body's back, because an object-created event carries only the key, and the key (a content hash) does not say which
 * URL the bytes came from or when.
 */
public final class ObjectMetadata {

    /** On bodies and captures: the normalized URL that answered. */
    public static final String URL = "url";
    /** On bodies and captures: that URL's hash, the key of its row. */
    public static final String URL_HASH = "url-hash";
    /** On bodies: when the bytes were fetched (ISO-8601), which orders extractions of the same URL. */
    public static final String FETCHED_AT = "fetched-at";
    /** On bodies: the SHA-256 of the bytes, which the key was made from. */
    public static final String CONTENT_SHA256 = "content-sha256";
    /** On bodies: the HTTP status of the response. */
    public static final String HTTP_STATUS = "http-status";
    /**
     * On bodies: {@code true} when a batch the fetch served asked for the Markdown of its main content; the extract
     * stage then renders it ({@link io.spiderling.core.content.MarkdownCopy}). Absent otherwise.
     */
    public static final String MARKDOWN = "markdown";
    /** On captures: the address connected to. */
    public static final String REMOTE_IP = "remote-ip";
    /** On captures: when the request started (ISO-8601). */
    public static final String CAPTURED_AT = "captured-at";

    private ObjectMetadata() {}
}
