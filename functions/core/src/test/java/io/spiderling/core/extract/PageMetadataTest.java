package io.spiderling.core.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PageMetadataTest {

    @Test
    void empty_whenCalled_hasNoValuesAndEmptyCollections() {
        PageMetadata empty = PageMetadata.empty();

        assertNull(empty.title());
        assertNull(empty.encoding());
        assertEquals(Map.of(), empty.openGraph());
        assertEquals(Map.of(), empty.twitter());
        assertEquals(List.of(), empty.structuredData());
        assertEquals(List.of(), empty.outlinks());
        assertEquals(0, empty.outlinksFound());
    }

    @Test
    void constructor_whenCollectionsAreNull_makesThemEmpty() {
        PageMetadata page = PageMetadata.builder().title("t").description(null).language(null).canonicalHref(null)
                .image(null).openGraph(null).twitter(null).structuredData(null).outlinks(null).outlinksFound(0)
                .encoding("UTF-8").build();

        assertEquals(Map.of(), page.openGraph());
        assertEquals(List.of(), page.outlinks());
    }

    @Test
    void constructor_whenGivenMutableCollections_copiesThemKeepingOrder() {
        Map<String, String> openGraph = new LinkedHashMap<>();
        openGraph.put("title", "T");
        openGraph.put("image", "I");
        openGraph.put("type", "article");
        List<String> outlinks = new ArrayList<>(List.of("https://example.com/"));

        PageMetadata page = PageMetadata.builder().title(null).description(null).language(null).canonicalHref(null)
                .image(null).openGraph(openGraph).twitter(Map.of()).structuredData(List.of()).outlinks(outlinks)
                .outlinksFound(1).encoding(null).build();
        openGraph.put("late", "x");
        outlinks.clear();

        assertEquals(List.of("title", "image", "type"), List.copyOf(page.openGraph().keySet()));
        assertEquals(List.of("https://example.com/"), page.outlinks());
        assertThrows(UnsupportedOperationException.class, () -> page.openGraph().remove("title"));
    }

    @Test
    void constructor_whenMapHasNullValue_throws() {
        Map<String, String> withNull = new HashMap<>();
        withNull.put("title", null);

        assertThrows(NullPointerException.class, () -> new StructuredData("Thing", withNull));
    }

    @Test
    void constructor_whenOutlinksFoundIsNegative_throws() {
        assertThrows(IllegalArgumentException.class,
                () -> PageMetadata.builder().title(null).description(null).language(null).canonicalHref(null)
                        .image(null).openGraph(null).twitter(null).structuredData(null).outlinks(null)
                        .outlinksFound(-1).encoding(null).build());
    }
}
