package io.spiderling.core.content;

import java.util.Objects;
import java.util.Optional;

/**
 * Where the Markdown of a page's main content is stored, and what it was made from: kept on the URL's row beside the
 * extraction, for the batches that asked for it ({@code "markdown": true}).
 *
 * @param sha256 the SHA-256 of the Markdown's UTF-8 bytes, which its key is made from ({@link BucketKeys#markdown})
 * @param bytes the Markdown's size in bytes
 * @param contentSha256 the body it was rendered from: a row whose content moved on no longer has Markdown of it
 * @param title the main content's title, when the page has one
 * @param language the page's language as it declares it, as a BCP 47 tag in its canonical case ({@code de-CH}),
 *     when it does
 */
public record MarkdownCopy(String sha256, long bytes, String contentSha256, Optional<String> title,
        Optional<String> language) {

    public MarkdownCopy {
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(contentSha256, "contentSha256");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(language, "language");
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must not be negative, was " + bytes);
        }
    }

    /** Its object's key. */
    public String key() {
        return BucketKeys.markdown(sha256);
    }
}
