package io.spiderling.core.extract;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps what is stored of a page well under DynamoDB's 400 KB item limit, next to the fetch fields and the
 * application fields on the same row. The extractor caps counts and lengths; this caps bytes, dropping whole entries
 * from the end (the page's order puts the most prominent first).
 */
public final class PageBudget {

    public static final int MAX_OUTLINK_BYTES = 64 * 1024;
    public static final int MAX_MAP_BYTES = 16 * 1024;
    public static final int MAX_STRUCTURED_BYTES = 32 * 1024;

    private PageBudget() {}

    public static PageMetadata fit(PageMetadata page) {
        return new PageMetadata(page.title(), page.description(), page.language(), page.canonicalHref(),
                page.image(), fit(page.openGraph()), fit(page.twitter()), fitStructured(page.structuredData()),
                fitLinks(page.outlinks()), page.outlinksFound(), page.encoding());
    }

    private static int bytes(String s) {
        return s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static List<String> fitLinks(List<String> links) {
        List<String> kept = new ArrayList<>();
        int total = 0;
        for (String link : links) {
            total += bytes(link);
            if (total > MAX_OUTLINK_BYTES) {
                break;
            }
            kept.add(link);
        }
        return kept;
    }

    private static Map<String, String> fit(Map<String, String> map) {
        Map<String, String> kept = new LinkedHashMap<>();
        int total = 0;
        for (Map.Entry<String, String> e : map.entrySet()) {
            total += bytes(e.getKey()) + bytes(e.getValue());
            if (total > MAX_MAP_BYTES) {
                break;
            }
            kept.put(e.getKey(), e.getValue());
        }
        return kept;
    }

    private static List<StructuredData> fitStructured(List<StructuredData> items) {
        List<StructuredData> kept = new ArrayList<>();
        int total = 0;
        for (StructuredData item : items) {
            total += bytes(item.type());
            for (Map.Entry<String, String> e : item.fields().entrySet()) {
                total += bytes(e.getKey()) + bytes(e.getValue());
            }
            if (total > MAX_STRUCTURED_BYTES) {
                break;
            }
            kept.add(item);
        }
        return kept;
    }
}
