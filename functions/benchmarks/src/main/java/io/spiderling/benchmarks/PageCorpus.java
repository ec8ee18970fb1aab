package io.spiderling.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Deterministic HTML pages for the extractor benchmark, shaped like an article or product page: a head with a meta
 * charset, description, canonical, OpenGraph and Twitter tags and two JSON-LD blocks, then paragraphs of UTF-8 text
 * (some of it non-ASCII) with about one link per 200 bytes. Links are relative, absolute on the same site with
 * tracking parameters, on other sites, fragments and mailto, and some repeat, as navigation does.
 */
final class PageCorpus {

    static final long SEED = 20261122L;
    /** One link per paragraph; a paragraph is about this long. */
    static final int BYTES_PER_LINK = 200;

    private static final String[] WORDS = {"spider", "polite", "fetch", "crawl", "café", "naïve", "résumé", "robots",
        "frontier", "queue", "lambda", "site", "page", "link", "metadata", "encoding", "“quoted”", "schema", "offer",
        "price", "article", "recipe", "über", "data"};
    private static final String[] HOSTS = {"news.example.org", "cdn.example.net", "shop.example.co.uk",
        "docs.example.io"};

    private PageCorpus() {}

    /** A page of at least {@code size} bytes in UTF-8, and less than one paragraph more. */
    static byte[] page(int size) {
        Random random = new Random(SEED);
        StringBuilder html = new StringBuilder(size + 1024);
        html.append("""
                <!DOCTYPE html>
                <html lang="en-GB">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>Polite crawling at scale — a field guide</title>
                <meta name="description" content="How a serverless fetcher keeps to robots.txt, rate limits and \
                the encodings of the pages it reads.">
                <link rel="canonical" href="https://www.example.com/guides/polite-crawling">
                <link rel="stylesheet" href="/assets/site.css">
                <meta property="og:title" content="Polite crawling at scale">
                <meta property="og:type" content="article">
                <meta property="og:url" content="https://www.example.com/guides/polite-crawling">
                <meta property="og:image" content="/images/guides/polite-crawling.jpg">
                <meta property="og:site_name" content="Example Guides">
                <meta property="og:description" content="A field guide to polite crawling.">
                <meta name="twitter:card" content="summary_large_image">
                <meta name="twitter:site" content="@example">
                <meta name="twitter:image" content="https://cdn.example.net/guides/polite-crawling.jpg">
                <script type="application/ld+json">
                {"@context": "https://schema.org", "@graph": [
                  {"@type": "Article", "headline": "Polite crawling at scale",
                   "author": [{"@type": "Person", "name": "Ada Lovelace"}],
                   "datePublished": "2026-11-01T08:00:00Z", "dateModified": "2026-11-20T09:30:00Z",
                   "image": {"@type": "ImageObject", "url": "https://cdn.example.net/guides/polite-crawling.jpg"}},
                  {"@type": "BreadcrumbList", "itemListElement": [
                    {"@type": "ListItem", "position": 1, "name": "Guides", "item": "https://www.example.com/guides"},
                    {"@type": "ListItem", "position": 2, "name": "Polite crawling"}]}
                ]}
                </script>
                <script type="application/ld+json">
                {"@context": "https://schema.org", "@type": "Product", "name": "Spiderling", "sku": "SPD-1",
                 "brand": {"@type": "Brand", "name": "Example"},
                 "offers": {"@type": "Offer", "price": 0.00, "priceCurrency": "EUR",
                            "availability": "https://schema.org/InStock"}}
                </script>
                <script src="/assets/site.js" defer></script>
                </head>
                <body>
                <header><nav><a href="/">Home</a> <a href="/guides/">Guides</a> <a href="/about">About</a></nav></header>
                <main><article>
                <h1>Polite crawling at scale</h1>
                <img src="/images/pixel.gif" width="1" height="1" alt="">
                """);
        String tail = "</article></main>\n<footer><a href=\"/privacy\">Privacy</a></footer>\n</body>\n</html>\n";
        int bytes = utf8Length(html) + utf8Length(tail);
        int paragraph = 0;
        while (bytes < size) {
            String p = paragraph(random, paragraph++);
            html.append(p);
            bytes += utf8Length(p);
        }
        return html.append(tail).toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String paragraph(Random random, int index) {
        StringBuilder p = new StringBuilder("<p>");
        int words = 14 + random.nextInt(8);
        int linkAt = random.nextInt(words);
        for (int w = 0; w < words; w++) {
            if (w == linkAt) {
                p.append("<a href=\"").append(href(random, index)).append("\">")
                        .append(WORDS[random.nextInt(WORDS.length)]).append("</a> ");
            } else {
                p.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
            }
        }
        return p.append("</p>\n").toString();
    }

    /** A link of the kinds pages hold; numbers repeat so that some links are duplicates. */
    private static String href(Random random, int index) {
        int n = random.nextInt(Math.max(10, index));
        return switch (random.nextInt(10)) {
            case 0, 1, 2, 3 -> "/guides/" + WORDS[n % WORDS.length].replace("“", "").replace("”", "") + "-" + n;
            case 4 -> "../articles/" + n + "?page=" + (n % 3) + "&sort=new";
            case 5 -> "https://www.example.com/guides/" + n + "?utm_source=newsletter&utm_medium=email";
            case 6, 7 -> "https://" + HOSTS[n % HOSTS.length] + "/" + n + "/index.html";
            case 8 -> "#section-" + n;
            default -> "mailto:team" + n + "@example.com";
        };
    }

    private static int utf8Length(CharSequence text) {
        return text.toString().getBytes(StandardCharsets.UTF_8).length;
    }
}
