package io.spiderling.core.markdown;

import com.vladsch.flexmark.html.HtmlRenderer;
import com.vladsch.flexmark.parser.Parser;
import org.jsoup.Jsoup;

/**
 * The words of a Markdown text as a reader sees them, without its syntax: markers, fences, link targets and table
 * pipes gone, blocks separated by a space. What the quality measures compare with a page's expected text.
 */
public final class MarkdownText {

    /** Both are immutable once built, and safe to share between threads. */
    private static final Parser PARSER = Parser.builder().build();
    private static final HtmlRenderer RENDERER = HtmlRenderer.builder().build();

    private MarkdownText() {}

    /** The plain text of {@code markdown}, read as CommonMark (a pipe table reads as its cells' text). */
    public static String plain(String markdown) {
        return Jsoup.parse(RENDERER.render(PARSER.parse(markdown))).text();
    }
}
