package io.spiderling.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.testkit.LocalSite;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Pages whose visible text or only their markup change between two runs, for the change-detection tests (ADR 18):
 * served plain on even sites, and with validators on odd ones, which then answer 304 for an unchanged page.
 */
final class ChangingPages {

    private ChangingPages() {}

    /** Serves page {@code p} of site {@code s}: with validators on the odd sites. */
    static void serve(LocalSite site, int s, int p, String text, String nonce, Instant modified) {
        String html = page("s" + s + "p" + p, text, nonce);
        if (s % 2 == 1) {
            site.cacheablePage("/p/" + p, html, modified);
        } else {
            site.page("/p/" + p, html);
        }
    }

    /** A page with a heading, a paragraph of {@code text} and a script whose nonce is {@code nonce}. */
    static String page(String title, String text, String nonce) {
        return "<html><head><title>" + title + "</title><script nonce='" + nonce + "'>var n='" + nonce
                + "';</script></head><body><h1>" + title + "</h1><p>" + text + "</p></body></html>";
    }

    /** The {@code change.state} of each URL's record that has one. */
    static Map<String, String> changes(LocalSpiderling local, List<String> urls) {
        Map<String, String> states = new TreeMap<>();
        try {
            for (String url : urls) {
                JsonNode record = LocalApi.get(local, "/urls?url=" + URLEncoder.encode(url, StandardCharsets.UTF_8));
                if (record.has("change")) {
                    states.put(url, record.get("change").get("state").asText());
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("reading the URLs' records", e);
        }
        return states;
    }
}
