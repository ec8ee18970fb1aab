package io.spiderling.local.cli;

import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import java.util.ArrayList;
import java.util.List;

/** {@code --demo}: three local sample sites, no internet needed. */
final class Demo {

    static final int SITES = 3;
    static final int PAGES = 20;
    /**
     * The demo sites' port when it is free, so a second run asks for the same URLs (and finds them fresh); a free
     * port otherwise.
     */
    static final int PORT = 8080;

    private Demo() {}

    static LocalSites startSites() {
        return LocalSites.demoSites(SITES, PAGES, PORT);
    }

    /** Every demo page once, then the same pages spelled differently, a page that does not exist and a bad URL. */
    static List<String> urls(LocalSites sites) {
        List<String> urls = new ArrayList<>();
        for (LocalSite site : sites.sites()) {
            for (int p = 1; p <= PAGES; p++) {
                urls.add(site.url("/page/" + p));
            }
        }
        LocalSite first = sites.site(0);
        urls.add("HTTP://" + first.host() + ":" + first.port() + "/page/1#top");
        urls.add(first.url("/docs/../page/2"));
        urls.add(sites.site(1).url("/page/3?"));
        urls.add(sites.site(2).url("/missing"));
        urls.add("ftp://" + first.host() + "/page/1");
        return urls;
    }
}
