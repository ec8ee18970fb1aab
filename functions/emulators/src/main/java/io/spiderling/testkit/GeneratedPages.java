package io.spiderling.testkit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Article pages for benchmarks that should cost what real pages cost: 30 to 100 KiB of UTF-8 HTML with about a
 * hundred links (to the same site, to the other local sites and to outside hosts), a description, a canonical link,
 * OpenGraph and Twitter meta tags and JSON-LD (an Article with its BreadcrumbList, and on every third page a
 * Product). A page depends only on the seed, its index and the URLs it is given, so a run can be repeated.
 */
public final class GeneratedPages {

    public static final int MIN_BYTES = 30 * 1024;
    public static final int MAX_BYTES = 100 * 1024;
    /** Links per page: 95 to 105. */
    public static final int MIN_LINKS = 95;
    public static final int MAX_LINKS = 105;

    private static final String[] WORDS = {"spider", "polite", "fetch", "crawl", "café", "naïve", "résumé", "robots",
        "frontier", "queue", "lambda", "site", "page", "link", "metadata", "encoding", "schema", "offer", "price",
        "article", "recipe", "über", "data", "the", "of", "and", "a", "to", "in", "is", "that", "for", "it", "with",
        "as", "on", "was", "by", "garden", "river", "market", "winter", "station", "library", "harbour", "ledger"};
    private static final String[] OUTSIDE = {"https://news.example.org", "https://cdn.example.net",
        "https://shop.example.co.uk", "https://docs.example.io", "https://www.example.com"};

    private GeneratedPages() {}

    /**
     * The page at {@code url}, the {@code index}-th of its site.
     *
     * @param otherSites base URLs of other sites (no trailing slash) that the page links to; may be empty
     */
    public static String page(long seed, int index, String url, List<String> otherSites) {
        SplittableRandom random = new SplittableRandom(seed * 1_000_003L + index);
        int target = MIN_BYTES + random.nextInt(MAX_BYTES - MIN_BYTES - 2048);
        String site = url.substring(0, url.indexOf('/', url.indexOf("//") + 2));
        String title = capitalized(phrase(random, 4 + random.nextInt(4)));
        List<String> links = links(random, site, otherSites, MIN_LINKS + random.nextInt(MAX_LINKS - MIN_LINKS + 1));

        StringBuilder html = new StringBuilder(target + 4096);
        head(html, random, index, url, site, title);
        html.append("<body>\n<header><nav><a href=\"/\">Home</a> <a href=\"/guides/\">Guides</a></nav></header>\n")
                .append("<main><article>\n<h1>").append(escape(title)).append("</h1>\n");
        String tail = "</article></main>\n<footer><a href=\"/privacy\">Privacy</a></footer>\n</body>\n</html>\n";
        int linksInText = links.size() - 4; // the nav and footer hold 3, the related list at least 1
        int bytes = utf8Length(html) + utf8Length(tail) + 64 * 4;
        // Paragraphs of 300 to 700 bytes, with the links spread evenly over those the target size needs.
        int paragraphs = Math.max(1, (target - bytes) / 500);
        int placed = 0;
        for (int p = 0; bytes < target || placed < linksInText; p++) {
            int wanted = (int) Math.min(linksInText, (long) (p + 1) * linksInText / paragraphs);
            StringBuilder paragraph = new StringBuilder("<p>");
            int words = 40 + random.nextInt(60);
            for (int w = 0; w < words; w++) {
                paragraph.append(WORDS[random.nextInt(WORDS.length)]).append(w + 1 < words ? " " : ".");
                if (placed < wanted && random.nextInt(words - w) < wanted - placed) {
                    paragraph.append(" <a href=\"").append(links.get(placed++)).append("\">")
                            .append(WORDS[random.nextInt(WORDS.length)]).append("</a> ");
                }
            }
            paragraph.append("</p>\n");
            html.append(paragraph);
            bytes += utf8Length(paragraph);
            if (p > paragraphs * 4) {
                break;
            }
        }
        html.append("<aside><h2>Related</h2><ul>\n");
        for (int i = placed; i < links.size() - 3; i++) {
            html.append("<li><a href=\"").append(links.get(i)).append("\">")
                    .append(escape(phrase(random, 3))).append("</a></li>\n");
        }
        return html.append("</ul></aside>\n").append(tail).toString();
    }

    private static void head(StringBuilder html, SplittableRandom random, int index, String url, String site,
            String title) {
        String description = capitalized(phrase(random, 18)) + ".";
        String image = "https://cdn.example.net/images/" + index + ".jpg";
        String published = "2026-%02d-%02dT%02d:00:00Z".formatted(1 + random.nextInt(10), 1 + random.nextInt(28),
                random.nextInt(24));
        html.append("""
                <!DOCTYPE html>
                <html lang="en-GB">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>%1$s</title>
                <meta name="description" content="%2$s">
                <link rel="canonical" href="%3$s">
                <link rel="stylesheet" href="/assets/site.css">
                <meta property="og:title" content="%1$s">
                <meta property="og:type" content="article">
                <meta property="og:url" content="%3$s">
                <meta property="og:image" content="%4$s">
                <meta property="og:site_name" content="%5$s">
                <meta property="og:description" content="%2$s">
                <meta name="twitter:card" content="summary_large_image">
                <meta name="twitter:image" content="%4$s">
                <script type="application/ld+json">
                {"@context": "https://schema.org", "@graph": [
                  {"@type": "Article", "headline": "%1$s", "description": "%2$s",
                   "author": [{"@type": "Person", "name": "%6$s"}],
                   "datePublished": "%7$s", "image": {"@type": "ImageObject", "url": "%4$s"},
                   "publisher": {"@type": "Organization", "name": "%5$s"}},
                  {"@type": "BreadcrumbList", "itemListElement": [
                    {"@type": "ListItem", "position": 1, "name": "Guides", "item": "%5$s/guides/"},
                    {"@type": "ListItem", "position": 2, "name": "%1$s"}]}
                ]}
                </script>
                """.formatted(escape(title), escape(description), url, image, site,
                capitalized(phrase(random, 2)), published));
        if (index % 3 == 0) {
            html.append("""
                    <script type="application/ld+json">
                    {"@context": "https://schema.org", "@type": "Product", "name": "%s", "sku": "SKU-%d",
                     "offers": {"@type": "Offer", "price": %d.%02d, "priceCurrency": "EUR",
                                "availability": "https://schema.org/InStock"}}
                    </script>
                    """.formatted(escape(title), index, 1 + random.nextInt(500), random.nextInt(100)));
        }
        html.append("<script src=\"/assets/site.js\" defer></script>\n</head>\n");
    }

    /**
     * {@code count} links: the last three are the nav's and footer's own; of the others about half to the same site
     * (absolute, root-relative and relative, some with tracking parameters), a third to the other sites, the rest to
     * outside hosts, fragments and mailto. Numbers repeat, so some links are duplicates, as navigation makes them.
     */
    private static List<String> links(SplittableRandom random, String site, List<String> otherSites, int count) {
        List<String> links = new ArrayList<>(count);
        for (int i = 0; i < count - 3; i++) {
            int n = random.nextInt(400);
            int kind = random.nextInt(20);
            links.add(switch (kind) {
                case 0, 1, 2, 3 -> site + "/item/" + n;
                case 4, 5, 6 -> "/item/" + n;
                case 7, 8 -> "../tag/" + WORDS[n % WORDS.length].replace("é", "e").replace("ï", "i")
                        .replace("ü", "u");
                case 9 -> site + "/item/" + n + "?utm_source=related&utm_medium=web";
                case 10, 11, 12, 13, 14, 15 -> otherSites.isEmpty() ? site + "/archive/" + n
                        : otherSites.get(n % otherSites.size()) + "/item/" + n;
                case 16, 17 -> OUTSIDE[n % OUTSIDE.length] + "/" + n + "/index.html";
                case 18 -> "#section-" + (n % 12);
                default -> "mailto:team" + (n % 7) + "@example.com";
            });
        }
        links.add("/");
        links.add("/guides/");
        links.add("/privacy");
        return links;
    }

    private static String phrase(SplittableRandom random, int words) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < words; i++) {
            s.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return s.toString();
    }

    private static String capitalized(String text) {
        return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;");
    }

    private static int utf8Length(CharSequence text) {
        return text.toString().getBytes(StandardCharsets.UTF_8).length;
    }
}
