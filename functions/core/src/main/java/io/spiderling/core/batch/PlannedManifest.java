package io.spiderling.core.batch;

import io.spiderling.core.url.NormalizationResult.Accepted;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.RequestUrl;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The manifest ingest writes for a batch it accepted, which canonicalize plans: one URL per line, its key, and when
 * the spelling to request differs from the key, a tab and that spelling. Neither form can hold a tab: the URL parser
 * removes tabs, and the key keeps what it leaves.
 */
public final class PlannedManifest {

    private static final char SEPARATOR = '\t';

    private PlannedManifest() {}

    /** A sitemap's line starts with this and a tab; no URL's key does (every key starts with its scheme). */
    private static final String SITEMAP = "sitemap";

    /** The line of a site's robots.txt, read for the sitemaps it names, starts with this and a tab. */
    private static final String ROBOTS = "robots";

    /** The manifest of {@code urls}, in their order. */
    public static byte[] write(List<Accepted> urls) {
        return write(urls, List.of());
    }

    /** The manifest of {@code urls}, then of {@code sitemaps} (ADR 19), each in their order. */
    public static byte[] write(List<Accepted> urls, List<Accepted> sitemaps) {
        return write(urls, sitemaps, List.of());
    }

    /**
     * The manifest of {@code urls}, then of {@code sitemaps}, then of {@code robots}: the robots.txt of the batch's
     * sites, read for the sitemaps they name ({@code "sitemapsFromRobots"}, ADR 19); each in their order.
     */
    public static byte[] write(List<Accepted> urls, List<Accepted> sitemaps, List<Accepted> robots) {
        StringBuilder text = new StringBuilder((urls.size() + sitemaps.size() + robots.size()) * 64);
        urls.forEach(url -> line(text, url));
        sitemaps.forEach(sitemap -> line(text.append(SITEMAP).append(SEPARATOR), sitemap));
        robots.forEach(robotsTxt -> line(text.append(ROBOTS).append(SEPARATOR), robotsTxt));
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void line(StringBuilder text, Accepted url) {
        text.append(url.url().value());
        if (!url.request().value().equals(url.url().value())) {
            text.append(SEPARATOR).append(url.request().value());
        }
        text.append('\n');
    }

    /** The sitemaps of a manifest {@link #write} wrote, in their order. */
    public static List<Accepted> readSitemaps(byte[] manifest) {
        return marked(manifest, SITEMAP);
    }

    /** The robots.txt files of a manifest {@link #write} wrote, in their order; none in one written before them. */
    public static List<Accepted> readRobots(byte[] manifest) {
        return marked(manifest, ROBOTS);
    }

    private static List<Accepted> marked(byte[] manifest, String mark) {
        List<Accepted> marked = new ArrayList<>();
        new String(manifest, StandardCharsets.UTF_8).lines().filter(line -> line.startsWith(mark + SEPARATOR))
                .forEach(line -> marked.add(accepted(line.substring(mark.length() + 1))));
        return marked;
    }

    private static Accepted accepted(String line) {
        int tab = line.indexOf(SEPARATOR);
        String key = tab < 0 ? line : line.substring(0, tab);
        String request = tab < 0 ? line : line.substring(tab + 1);
        return new Accepted(NormalizedUrl.parse(key), RequestUrl.parse(request));
    }

    /**
     * The URLs of a manifest {@link #write} wrote, its sitemaps and robots.txt files left out; blank lines are
     * skipped.
     *
     * @throws IllegalArgumentException for a line that holds no key, or a request that is no request URL
     */
    public static List<Accepted> read(byte[] manifest) {
        List<Accepted> urls = new ArrayList<>();
        new String(manifest, StandardCharsets.UTF_8).lines()
                .filter(line -> !line.isBlank() && !line.startsWith(SITEMAP + SEPARATOR)
                        && !line.startsWith(ROBOTS + SEPARATOR))
                .forEach(line -> urls.add(accepted(line)));
        return urls;
    }
}
