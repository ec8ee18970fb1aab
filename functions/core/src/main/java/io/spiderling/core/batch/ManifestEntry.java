package io.spiderling.core.batch;

import io.spiderling.core.url.NormalizedUrl;
import java.util.Objects;

/**
 * One accepted URL of a manifest and where it stood there. The position (a byte offset in an uploaded manifest, a line
 * number in a planned one) tells a duplicate from a retry: a second URL with the same hash at another position is a
 * duplicate, while the same position seen again is the same line read again after an interrupted attempt.
 */
public record ManifestEntry(long position, NormalizedUrl url, ItemKind kind) {

    public ManifestEntry {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(kind, "kind");
        if (position < 0) {
            throw new IllegalArgumentException("position must not be negative: " + position);
        }
    }

    /** A page at {@code position}. */
    public ManifestEntry(long position, NormalizedUrl url) {
        this(position, url, ItemKind.PAGE);
    }

    /** The key of the entry's item ({@link ItemKind#key}). */
    public String itemKey() {
        return kind.key(url);
    }
}
