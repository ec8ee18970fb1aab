package io.spiderling.core.batch;

import java.util.Arrays;
import java.util.Optional;

/** The two manifest formats a client may upload with {@code POST /batches/uploads}. */
public enum UploadFormat {
    /** One URL per line. */
    TEXT("text", "txt", "text/plain; charset=utf-8"),
    /** One JSON value per line: a string, or an object with a {@code url} string field. */
    JSONL("jsonl", "jsonl", "application/x-ndjson");

    private final String wireName;
    private final String extension;
    private final String contentType;

    UploadFormat(String wireName, String extension, String contentType) {
        this.wireName = wireName;
        this.extension = extension;
        this.contentType = contentType;
    }

    public String wireName() {
        return wireName;
    }

    /** The file extension of its object key, without the dot. */
    public String extension() {
        return extension;
    }

    /** The Content-Type the presigned upload is signed for. */
    public String contentType() {
        return contentType;
    }

    public static Optional<UploadFormat> fromWireName(String name) {
        return Arrays.stream(values()).filter(f -> f.wireName.equals(name)).findFirst();
    }

    public static Optional<UploadFormat> fromExtension(String extension) {
        return Arrays.stream(values()).filter(f -> f.extension.equals(extension)).findFirst();
    }
}
