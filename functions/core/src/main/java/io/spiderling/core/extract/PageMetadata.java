package io.spiderling.core.extract;

/**
 * What the extractor found in a page; either field is {@code null} when the page has none.
 *
 * @param title the document title, whitespace collapsed
 * @param description the meta description, else the OpenGraph description, whitespace collapsed
 */
public record PageMetadata(String title, String description) {

    private static final PageMetadata EMPTY = new PageMetadata(null, null);

    public static PageMetadata empty() {
        return EMPTY;
    }
}
