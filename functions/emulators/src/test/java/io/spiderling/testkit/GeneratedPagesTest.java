package io.spiderling.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class GeneratedPagesTest {

    private static final Pattern HREF = Pattern.compile("<a href=\"([^\"]*)\"");
    private static final String URL = "http://127.0.0.2:8080/item/7";
    private static final List<String> OTHERS = List.of("http://127.0.0.3:8081", "http://127.0.0.4:8082");

    @Test
    void page_whenSameSeedAndIndex_isTheSamePage() {
        assertEquals(GeneratedPages.page(42, 7, URL, OTHERS), GeneratedPages.page(42, 7, URL, OTHERS));
        assertNotEquals(GeneratedPages.page(42, 7, URL, OTHERS), GeneratedPages.page(42, 8, URL, OTHERS));
        assertNotEquals(GeneratedPages.page(42, 7, URL, OTHERS), GeneratedPages.page(43, 7, URL, OTHERS));
    }

    @Test
    void page_whenManyGenerated_sizesAndLinkCountsStayInTheirRanges() {
        for (int index = 0; index < 300; index++) {
            String html = GeneratedPages.page(20261124, index, "http://127.0.0.2:8080/item/" + index, OTHERS);
            int bytes = html.getBytes(StandardCharsets.UTF_8).length;
            List<String> links = links(html);

            assertTrue(bytes >= GeneratedPages.MIN_BYTES && bytes <= GeneratedPages.MAX_BYTES,
                    "page " + index + ": " + bytes + " bytes");
            assertTrue(links.size() >= GeneratedPages.MIN_LINKS && links.size() <= GeneratedPages.MAX_LINKS,
                    "page " + index + ": " + links.size() + " links");
        }
    }

    @Test
    void page_whenGenerated_linksTheSameSiteOtherSitesAndOutsideAndCarriesOpenGraphAndJsonLd() {
        String html = GeneratedPages.page(1, 3, URL, OTHERS);
        List<String> links = links(html);

        assertTrue(links.stream().anyMatch(l -> l.startsWith("http://127.0.0.2:8080/")), "absolute same-site");
        assertTrue(links.stream().anyMatch(l -> l.startsWith("/item/")), "root-relative");
        assertTrue(links.stream().anyMatch(l -> l.startsWith("http://127.0.0.3:8081/")), "another local site");
        assertTrue(links.stream().anyMatch(l -> l.startsWith("https://")), "outside hosts");
        assertTrue(html.contains("<meta property=\"og:url\" content=\"" + URL + "\">"), "og:url");
        assertTrue(html.contains("<link rel=\"canonical\" href=\"" + URL + "\">"), "canonical");
        assertTrue(html.contains("\"@type\": \"Article\""), "JSON-LD article");
        assertTrue(html.contains("\"@type\": \"Product\""), "every third page a product");
    }

    private static List<String> links(String html) {
        Matcher m = HREF.matcher(html);
        List<String> links = new java.util.ArrayList<>();
        while (m.find()) {
            links.add(m.group(1));
        }
        return links;
    }
}
