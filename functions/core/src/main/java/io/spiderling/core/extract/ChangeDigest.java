package io.spiderling.core.extract;

import io.spiderling.core.content.Hashing;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * The change digest of an HTML page (ADR 18): the SHA-256 of what a reader sees of it, so that a page whose bytes
 * differ only in markup, attributes, scripts or styles (a CSP nonce, a CSRF token, a cache-busting query, a build id)
 * is not called changed. It covers the title, the description, the language, the canonical link and the body's
 * visible text with its whitespace collapsed, each part named so that text cannot move from one part to another
 * unnoticed. Text a reader sees changes it: a visible timestamp does. The body's own SHA-256 stays its storage key.
 */
final class ChangeDigest {

    private ChangeDigest() {}

    static String of(Document document, PageMetadata page) {
        Element body = document.body();
        StringBuilder seen = new StringBuilder(4096);
        part(seen, "title", page.title());
        part(seen, "description", page.description());
        part(seen, "language", page.language());
        part(seen, "canonical", page.canonicalHref());
        part(seen, "text", body == null ? null : Text.clean(body.text(), Integer.MAX_VALUE));
        return Hashing.sha256Hex(seen.toString());
    }

    /** The part's name, its length and its text: no two different sets of parts read the same. */
    private static void part(StringBuilder seen, String name, String text) {
        String value = text == null ? "" : text;
        seen.append(name).append(' ').append(value.length()).append(':').append(value).append('\n');
    }
}
