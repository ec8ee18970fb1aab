package io.spiderling.core.sitemap;

import crawlercommons.sitemaps.AbstractSiteMap;
import crawlercommons.sitemaps.AbstractSiteMap.SitemapType;
import crawlercommons.sitemaps.SiteMap;
import crawlercommons.sitemaps.SiteMapIndex;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.SiteMapURL;
import crawlercommons.sitemaps.UnknownFormatException;
import io.spiderling.core.sitemap.SitemapOutcome.Unreadable.Why;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.xml.sax.SAXException;

/**
 * crawler-commons' {@link SiteMapParser} in its lenient mode, which keeps the entries outside the sitemap's location so
 * that {@link SitemapLocation} can say why it refuses them. Lenient mode still drops, without a word, every entry that
 * {@code java.net.URL} cannot parse (a relative URL, an unknown scheme). To report those too, the parser's URL filter
 * records each entry as written, in document order, and the parsed entries are matched back to the records.
 *
 * <p>The filter also bounds memory: past the per-sitemap limit it counts entries and turns each into {@code ""},
 * which {@code java.net.URL} refuses, so a hostile urlset of a million tiny entries does not become a million objects.
 * It does not return null, crawler-commons' way to filter an entry out: the urlset and index handlers then keep the
 * entry's state and call the filter with it again at the next element, so calls could not be counted as entries.
 * Urlset, index and text handlers call the filter once per entry. The feed handlers do not: RSS calls it for the
 * channel's own link and for each link of an item, and keeps an item whose link the filter refused; Atom keeps the
 * entry with no URL. So a feed's entries are taken and counted from the parsed list; feeds are short.
 */
final class SitemapParsing {

    /** crawler-commons reads a text sitemap's first 50,000 lines, blank ones included ({@code MAX_URLS}). */
    static final int TEXT_LINES_READ = 50_000;

    /**
     * What a sitemap listed.
     *
     * @param index whether it is an index, listing sitemaps
     * @param entries the entries read, in document order, at most the per-sitemap limit
     * @param leftOut how many entries came after those
     */
    record Parsed(boolean index, List<Candidate> entries, long leftOut) {}

    /** An entry as written, with its {@code lastmod} if crawler-commons read one. */
    record Candidate(String url, Optional<Instant> lastmod) {}

    /** An entry as crawler-commons parsed it. */
    private record Item(URL url, Date lastmod) {}

    private SitemapParsing() {}

    static Parsed parse(SitemapSource source, byte[] bytes, String mediaType, int maxEntries)
            throws UnreadableSitemap {
        Recorder recorder = new Recorder(maxEntries);
        SiteMapParser parser = new SiteMapParser(false, false);
        parser.setURLFilter(recorder);
        AbstractSiteMap map;
        try {
            map = parser.parseSiteMap(mediaType, bytes, javaUrl(source.url().value()));
        } catch (UnknownFormatException e) {
            throw unreadable(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // only from reading the byte array, which does not fail
        }
        return switch (map) {
            case SiteMapIndex index -> new Parsed(true, matched(recorder, items(index)), recorder.dropped);
            case SiteMap feed when feed.getType() == SitemapType.RSS || feed.getType() == SitemapType.ATOM ->
                    feed(feed, maxEntries);
            case SiteMap sitemap -> new Parsed(false, matched(recorder, items(sitemap)),
                    recorder.dropped + unreadLines(sitemap, bytes));
            default -> throw new IllegalStateException("crawler-commons returned a " + map.getClass());
        };
    }

    private static UnreadableSitemap unreadable(UnknownFormatException e) {
        if (e.getCause() instanceof SAXException sax) {
            return new UnreadableSitemap(Why.BROKEN_XML, String.valueOf(sax.getMessage()));
        }
        return new UnreadableSitemap(Why.NOT_A_SITEMAP, String.valueOf(e.getMessage()));
    }

    /**
     * The recorded entries, each with the lastmod of the parsed entry it became. crawler-commons keeps an entry exactly
     * when {@code new URL(filtered)} succeeds, and the filter returned the entry unchanged, so the recorded entries
     * that parse are, in order, the parsed ones.
     */
    private static List<Candidate> matched(Recorder recorder, List<Item> items) {
        List<Candidate> entries = new ArrayList<>(recorder.seen.size());
        Iterator<Item> parsed = items.iterator();
        for (String written : recorder.seen) {
            Optional<URL> url = javaUrlOf(written);
            if (url.isEmpty()) {
                entries.add(new Candidate(written, Optional.empty()));
                continue;
            }
            Item item = parsed.next();
            if (!item.url().toString().equals(url.get().toString())) {
                throw new IllegalStateException("crawler-commons parsed " + item.url() + " where " + written
                        + " was written; its URL filter is no longer called once per entry");
            }
            entries.add(new Candidate(written, lastmod(item.lastmod())));
        }
        return entries;
    }

    /** A feed's entries, cut at the limit; an Atom entry without a URL is one the filter refused past it. */
    private static Parsed feed(SiteMap feed, int maxEntries) {
        List<Candidate> entries = new ArrayList<>();
        long refused = 0;
        for (SiteMapURL url : feed.getSiteMapUrls()) {
            if (url.getUrl() == null) {
                refused++;
            } else {
                entries.add(new Candidate(url.getUrl().toString(), lastmod(url.getLastModified())));
            }
        }
        if (entries.size() <= maxEntries) {
            return new Parsed(false, entries, refused);
        }
        return new Parsed(false, entries.subList(0, maxEntries), entries.size() - maxEntries + refused);
    }

    /** The non-blank lines of a text sitemap that crawler-commons did not read. */
    private static long unreadLines(SiteMap sitemap, byte[] bytes) {
        if (sitemap.getType() != SitemapType.TEXT) {
            return 0;
        }
        return new String(bytes, StandardCharsets.UTF_8).lines().skip(TEXT_LINES_READ)
                .filter(line -> !line.trim().isEmpty()).count();
    }

    private static List<Item> items(SiteMapIndex index) {
        return index.getSitemaps().stream().map(s -> new Item(s.getUrl(), s.getLastModified())).toList();
    }

    private static List<Item> items(SiteMap sitemap) {
        Collection<SiteMapURL> urls = sitemap.getSiteMapUrls();
        return urls.stream().map(u -> new Item(u.getUrl(), u.getLastModified())).toList();
    }

    private static Optional<Instant> lastmod(Date date) {
        return Optional.ofNullable(date).map(Date::toInstant);
    }

    private static URL javaUrl(String url) {
        return javaUrlOf(url).orElseThrow(() -> new IllegalArgumentException("not a java.net.URL: " + url));
    }

    /** {@code new URL(spec)}, the very test crawler-commons applies to each entry. */
    @SuppressWarnings("deprecation")
    private static Optional<URL> javaUrlOf(String spec) {
        try {
            return Optional.of(new URL(spec));
        } catch (MalformedURLException e) {
            return Optional.empty();
        }
    }

    /** crawler-commons' URL filter: records each entry as written, up to the limit, and refuses the rest. */
    private static final class Recorder implements Function<String, String> {
        private final int limit;
        private final List<String> seen = new ArrayList<>();
        private long dropped;

        Recorder(int limit) {
            this.limit = limit;
        }

        @Override
        public String apply(String written) {
            if (seen.size() < limit) {
                seen.add(written);
                return written;
            }
            dropped++;
            return "";
        }
    }
}
