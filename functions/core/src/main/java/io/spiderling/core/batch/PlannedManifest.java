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

    /** The manifest of {@code urls}, in their order. */
    public static byte[] write(List<Accepted> urls) {
        return write(urls, List.of());
    }

    /** The manifest of {@code urls}, then of {@code sitemaps} (ADR 19), each in their order. */
    public static byte[] write(List<Accepted> urls, List<Accepted> sitemaps) {
        StringBuilder text = new StringBuilder((urls.size() + sitemaps.size()) * 64);
        urls.forEach(url -> line(text, url));
        sitemaps.forEach(sitemap -> line(text.append(SITEMAP).append(SEPARATOR), sitemap));
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
        List<Accepted> sitemaps = new ArrayList<>();
        new String(manifest, StandardCharsets.UTF_8).lines().filter(line -> line.startsWith(SITEMAP + SEPARATOR))
                .forEach(line -> sitemaps.add(accepted(line.substring(SITEMAP.length() + 1))));
        return sitemaps;
    }

    private static Accepted accepted(String line) {
        int tab = line.indexOf(SEPARATOR);
        String key = tab < 0 ? line : line.substring(0, tab);
        String request = tab < 0 ? line : line.substring(tab + 1);
        return new Accepted(NormalizedUrl.parse(key), RequestUrl.parse(request));
    }

    /**
     * The URLs of a manifest {@link #write} wrote, its sitemaps left out; blank lines are skipped.
     *
     * @throws IllegalArgumentException for a line that holds no key, or a request that is no request URL
     */
    public static List<Accepted> read(byte[] manifest) {
        List<Accepted> urls = new ArrayList<>();
        new String(manifest, StandardCharsets.UTF_8).lines()
                .filter(line -> !line.isBlank() && !line.startsWith(SITEMAP + SEPARATOR))
                .forEach(line -> urls.add(accepted(line)));
        return urls;
    }
}
