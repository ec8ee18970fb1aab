package io.spiderling.core.extract;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Keeps what is stored of a page well under DynamoDB's 400 KB item limit, next to the fetch fields and the
 * application fields on the same row. The extractor caps counts and lengths; this caps bytes, dropping whole entries
 * from the end (the page's order puts the most prominent first).
 */
public final class PageBudget {

    public static final int MAX_OUTLINK_BYTES = 64 * 1024;
    public static final int MAX_MAP_BYTES = 16 * 1024;
    public static final int MAX_STRUCTURED_BYTES = 32 * 1024;
    /**
     * The most a fitted page takes, in UTF-8 bytes of its strings: the three budgets above, the two maps, and the
     * single values at the extractor's caps (title 1,000 characters, description 2,000, language 100, canonical link
     * and image 2,048 each, at up to three bytes a character), rounded up. About 40% of the 400 KB item.
     */
    public static final int MAX_PAGE_BYTES = 160 * 1024;

    private PageBudget() {}

    public static PageMetadata fit(PageMetadata page) {
        return PageMetadata.builder().title(page.title()).description(page.description()).language(page.language())
                .canonicalHref(page.canonicalHref()).image(page.image()).openGraph(fit(page.openGraph()))
                .twitter(fit(page.twitter())).structuredData(fitStructured(page.structuredData()))
                .outlinks(fitLinks(page.outlinks())).outlinksFound(page.outlinksFound()).encoding(page.encoding())
                .directives(page.directives()).build();
    }

    /** The UTF-8 bytes of every string of the page: what it adds to the stored row, attribute names aside. */
    public static int storedBytes(PageMetadata page) {
        int total = bytes(page.title()) + bytes(page.description()) + bytes(page.language())
                + bytes(page.canonicalHref()) + bytes(page.image()) + bytes(page.encoding());
        total += page.openGraph().entrySet().stream().mapToInt(PageBudget::bytes).sum();
        total += page.twitter().entrySet().stream().mapToInt(PageBudget::bytes).sum();
        total += page.structuredData().stream().mapToInt(PageBudget::bytes).sum();
        total += bytes(page.directives());
        return total + page.outlinks().stream().mapToInt(PageBudget::bytes).sum();
    }

    /** Bounded by the parser: 16 other directives and a date of 100 characters each, about 5 KB at most. */
    private static int bytes(PageDirectives directives) {
        return directives.directives().stream().mapToInt(d -> bytes(d.wireName())).sum()
                + directives.unavailableAfter().map(u -> bytes(u.text())).orElse(0)
                + directives.others().stream().mapToInt(PageBudget::bytes).sum();
    }

    private static int bytes(StructuredData item) {
        return bytes(item.type()) + item.fields().entrySet().stream().mapToInt(PageBudget::bytes).sum();
    }

    private static int bytes(String s) {
        return s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** The leading entries whose sizes add up to at most {@code max} bytes. */
    private static <T> List<T> leading(Collection<T> entries, ToIntFunction<T> size, int max) {
        List<T> kept = new ArrayList<>();
        int total = 0;
        for (T entry : entries) {
            total += size.applyAsInt(entry);
            if (total > max) {
                break;
            }
            kept.add(entry);
        }
        return kept;
    }

    private static int bytes(Map.Entry<String, String> e) {
        return bytes(e.getKey()) + bytes(e.getValue());
    }

    private static List<String> fitLinks(List<String> links) {
        return leading(links, PageBudget::bytes, MAX_OUTLINK_BYTES);
    }

    private static Map<String, String> fit(Map<String, String> map) {
        Map<String, String> kept = new LinkedHashMap<>();
        leading(map.entrySet(), PageBudget::bytes, MAX_MAP_BYTES).forEach(e -> kept.put(e.getKey(), e.getValue()));
        return kept;
    }

    private static List<StructuredData> fitStructured(List<StructuredData> items) {
        return leading(items, PageBudget::bytes, MAX_STRUCTURED_BYTES);
    }
}
