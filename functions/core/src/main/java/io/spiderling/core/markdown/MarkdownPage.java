package io.spiderling.core.markdown;

import java.util.Objects;
import java.util.Optional;

/**
 * The Markdown of a page's main content.
 *
 * @param markdown CommonMark with GitHub's pipe tables: headings, lists, links and images made absolute, tables,
 *     fenced code blocks; never blank. It keeps the article's own heading when the page has one there.
 * @param title the title of the article as the extractor found it, else the page's {@code <title>}
 * @param language the page's declared language as a BCP 47 tag in its canonical case ({@code en-US}), if it declared
 *     one that is well formed
 */
public record MarkdownPage(String markdown, Optional<String> title, Optional<String> language) {

    public MarkdownPage {
        Objects.requireNonNull(markdown, "markdown");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(language, "language");
    }
}
