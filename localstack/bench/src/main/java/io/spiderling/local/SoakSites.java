package io.spiderling.local;

import com.sun.net.httpserver.HttpExchange;
import io.spiderling.core.politeness.RateLimiter;
import io.spiderling.core.politeness.RateOverrides;
import io.spiderling.testkit.GeneratedPages;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.PolitenessReport;
import io.spiderling.testkit.PolitenessReport.Answer;
import io.spiderling.testkit.PolitenessReport.Exchange;
import io.spiderling.testkit.PolitenessReport.SiteRules;
import io.spiderling.testkit.RecordedRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The soak's sites: {@code S} {@link LocalSites}, one address each, serving {@code N} URLs round-robin (URL {@code i}
 * on site {@code i mod S}), with a seeded mix of site roles and page kinds, and a compact log of what they were asked
 * and what they answered (about 32 bytes a request, so the log itself does not look like a leak in a long run).
 *
 * <p>Roles ({@link Role}), shuffled over the sites by the seed: 80 % {@code plain} (robots.txt allows all, the fast
 * rate), 10 % {@code rules} (robots.txt disallows {@code /private/}, a fifth of their URLs are under it), 5 %
 * {@code flaky} (a tenth of their URLs answer 404, a twentieth 500 once then the page, a twentieth 429 with
 * {@code Retry-After: 1} once then the page), 5 % {@code slow} (robots.txt 404, every answer after 200 ms, no rate
 * override: the pipeline's default rate). Every robots.txt answer carries {@code Cache-Control: max-age} of the
 * robots TTL. Pages are small (about 600 bytes, three links), made from the URL's index when asked.
 */
final class SoakSites implements AutoCloseable {

    /** What a site is for. */
    enum Role {
        PLAIN, RULES, FLAKY, SLOW;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What a URL answers. */
    enum Kind {
        /** 200 with the page. */
        PAGE("fetched"),
        /** Under a prefix the site's robots.txt disallows: never to be requested. */
        DISALLOWED("disallowed"),
        /** 404 always. */
        MISSING("failed"),
        /** 500, then the page. */
        FAIL_ONCE("fetched"),
        /** 429 with Retry-After: 1, then the page. */
        THROTTLE_ONCE("fetched");

        /** The item state the URL should end in, by its wire name. */
        final String expected;

        Kind(String expected) {
            this.expected = expected;
        }

        /** The status of the n-th request (from 0). */
        int status(int ordinal) {
            return switch (this) {
                case PAGE, DISALLOWED -> 200;
                case MISSING -> 404;
                case FAIL_ONCE -> ordinal == 0 ? 500 : 200;
                case THROTTLE_ONCE -> ordinal == 0 ? 429 : 200;
            };
        }

        /** Requests the URL needs when the fetcher behaves. */
        int requests() {
            return switch (this) {
                case DISALLOWED -> 0;
                case PAGE, MISSING -> 1;
                case FAIL_ONCE, THROTTLE_ONCE -> 2;
            };
        }
    }

    /** One request a site received: the site, the URL's index (−1 for robots.txt), its ordinal for that path. */
    record Hit(int site, int url, int ordinal, long epochMicros) {}

    static final String ROBOTS = "/robots.txt";
    static final String DISALLOWED_PREFIX = "/private/";
    /** How long a slow site waits before it answers. */
    static final Duration SLOW_ANSWER = Duration.ofMillis(200);
    private static final String HTML = "text/html; charset=utf-8";
    private static final String TEXT = "text/plain; charset=utf-8";

    private final LocalSites sites;
    private final int urls;
    private final int qps;
    private final Duration robotsTtl;
    private final Pages pages;
    private final long seed;
    /** Every site's base URL, for the links of {@link Pages#REALISTIC} pages. */
    private final List<String> bases;
    private final Role[] roles;
    private final byte[] kinds;
    private final Map<String, Integer> siteOf = new HashMap<>();
    private final AtomicIntegerArray served;
    private final AtomicIntegerArray robotsServed;
    /** Written under the lock of {@link #hits} only. */
    private final int[] asked;
    private final int[] robotsAsked;
    private final List<Hit> hits = new ArrayList<>();
    private final List<RecordedRequest> strays = new ArrayList<>();

    private SoakSites(LocalSites sites, int urls, int qps, Duration robotsTtl, Pages pages, long seed) {
        this.sites = sites;
        this.urls = urls;
        this.qps = qps;
        this.robotsTtl = robotsTtl;
        this.pages = pages;
        this.seed = seed;
        this.bases = sites.sites().stream().map(LocalSite::baseUrl).toList();
        int count = sites.sites().size();
        this.roles = roles(count, seed);
        this.kinds = new byte[urls];
        this.served = new AtomicIntegerArray(urls);
        this.asked = new int[urls];
        this.robotsServed = new AtomicIntegerArray(count);
        this.robotsAsked = new int[count];
        for (int s = 0; s < count; s++) {
            siteOf.put(sites.site(s).host(), s);
        }
        for (int i = 0; i < urls; i++) {
            kinds[i] = (byte) kind(roles[i % count], new SplittableRandom(seed * 1_000_003L + i)).ordinal();
        }
    }

    /** What the sites' pages are like. */
    enum Pages {
        /** A few hundred bytes with three links: the stack's own work, not the pages', sets the pace. */
        SMALL,
        /**
         * {@code bench-fetch}'s article pages ({@link GeneratedPages}: 30–100 KiB, about 100 links, structured
         * data), generated on each request from the seed and the URL: rows and extraction cost what real pages'
         * cost.
         */
        REALISTIC
    }

    /** Starts {@code count} sites and serves {@code urls} URLs over them. */
    static SoakSites start(int count, int urls, int qps, Duration robotsTtl, Pages pages, long seed) {
        LocalSites sites = LocalSites.start(count);
        try {
            SoakSites soak = new SoakSites(sites, urls, qps, robotsTtl, pages, seed);
            sites.streamRequests(soak::record);
            soak.serve();
            return soak;
        } catch (RuntimeException e) {
            sites.close();
            throw e;
        }
    }

    /** The roles in their proportions, shuffled by the seed; at least one slow site when there are 20 or more. */
    private static Role[] roles(int count, long seed) {
        List<Role> list = new ArrayList<>();
        for (int s = 0; s < count; s++) {
            int slot = s % 20;
            list.add(slot == 0 ? Role.SLOW : slot <= 2 ? Role.RULES : slot == 3 ? Role.FLAKY : Role.PLAIN);
        }
        Collections.shuffle(list, new Random(seed));
        return list.toArray(Role[]::new);
    }

    private static Kind kind(Role role, SplittableRandom random) {
        int roll = random.nextInt(100);
        return switch (role) {
            case PLAIN, SLOW -> Kind.PAGE;
            case RULES -> roll < 20 ? Kind.DISALLOWED : Kind.PAGE;
            case FLAKY -> roll < 10 ? Kind.MISSING : roll < 15 ? Kind.FAIL_ONCE : roll < 20 ? Kind.THROTTLE_ONCE
                    : Kind.PAGE;
        };
    }

    private void serve() {
        for (int s = 0; s < roles.length; s++) {
            LocalSite site = sites.site(s);
            int index = s;
            site.serve(ROBOTS, exchange -> robots(exchange, index));
        }
        for (int i = 0; i < urls; i++) {
            int index = i;
            sites.site(i % roles.length).serve(path(i), exchange -> page(exchange, index));
        }
    }

    private void robots(HttpExchange exchange, int site) throws IOException {
        robotsServed.getAndIncrement(site);
        pause(roles[site]);
        exchange.getResponseHeaders().set("Cache-Control", "max-age=" + robotsTtl.toSeconds());
        send(exchange, robotsStatus(roles[site]), TEXT, robotsText(roles[site]));
    }

    private void page(HttpExchange exchange, int url) throws IOException {
        int ordinal = served.getAndIncrement(url);
        int site = url % roles.length;
        pause(roles[site]);
        int status = kind(url).status(ordinal);
        if (status == 429) {
            exchange.getResponseHeaders().set("Retry-After", "1");
        }
        send(exchange, status, status == 200 ? HTML : TEXT, status == 200 ? html(url) : "status " + status);
    }

    private static void pause(Role role) {
        if (role == Role.SLOW) {
            try {
                Thread.sleep(SLOW_ANSWER);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }

    private String html(int url) {
        int site = url % roles.length;
        if (pages == Pages.REALISTIC) {
            return GeneratedPages.page(seed, url, sites.site(site).url(path(url)), bases);
        }
        String title = "Soak site " + site + ", page " + url;
        String next = sites.site(site).url(path(Math.min(urls - 1, url + roles.length)));
        String other = sites.site((site + 1) % roles.length).url(path((url + 1) % urls));
        return """
                <!DOCTYPE html>
                <html><head><title>%1$s</title><meta name="description" content="About %1$s, a page of the soak.">
                </head><body><h1>%1$s</h1>
                <p>A small page for a long run: <a href="%2$s">the next page of this site</a>,
                <a href="%3$s">a page of the next site</a> and <a href="https://www.example.com/">one outside</a>.</p>
                </body></html>
                """.formatted(title, next, other);
    }

    private static int robotsStatus(Role role) {
        return role == Role.SLOW ? 404 : 200;
    }

    private static String robotsText(Role role) {
        return switch (role) {
            case RULES -> "User-agent: *\nDisallow: " + DISALLOWED_PREFIX + "\n";
            case SLOW -> "Not Found";
            case PLAIN, FLAKY -> "User-agent: *\nDisallow:\n";
        };
    }

    /** Runs under LocalSites' recording lock, in arrival order. */
    private void record(RecordedRequest request) {
        Integer site = siteOf.get(request.host());
        int url = site == null ? -2 : urlIndex(request.path(), site);
        synchronized (hits) {
            if (url == -2) {
                strays.add(request);
                return;
            }
            int ordinal = url < 0 ? robotsAsked[site]++ : asked[url]++;
            Instant at = request.receivedAt();
            hits.add(new Hit(site, url, ordinal, at.getEpochSecond() * 1_000_000 + at.getNano() / 1000));
        }
    }

    /** The index of one of the soak's URLs, −1 for any other. */
    int indexOf(String url) {
        java.net.URI uri = java.net.URI.create(url);
        Integer site = siteOf.get(uri.getHost());
        int index = site == null ? -2 : urlIndex(uri.getRawPath(), site);
        return index < 0 ? -1 : index;
    }

    /** The URL's index for a path of this site, −1 for robots.txt, −2 for a path the soak never served. */
    private int urlIndex(String path, int site) {
        if (path.equals(ROBOTS)) {
            return -1;
        }
        int slash = path.lastIndexOf('/');
        try {
            int url = Integer.parseInt(path.substring(slash + 1));
            return url >= 0 && url < urls && url % roles.length == site && path.equals(path(url)) ? url : -2;
        } catch (NumberFormatException e) {
            return -2;
        }
    }

    String path(int url) {
        return (kind(url) == Kind.DISALLOWED ? DISALLOWED_PREFIX : "/page/") + url;
    }

    Kind kind(int url) {
        return Kind.values()[kinds[url]];
    }

    String url(int index) {
        return sites.site(index % roles.length).url(path(index));
    }

    int size() {
        return urls;
    }

    int siteCount() {
        return roles.length;
    }

    Role role(int site) {
        return roles[site];
    }

    String host(int site) {
        return sites.site(site).host();
    }

    Duration robotsTtl() {
        return robotsTtl;
    }

    /** How many sites have each role. */
    Map<Role, Integer> roleCounts() {
        Map<Role, Integer> counts = new EnumMap<>(Role.class);
        for (Role role : roles) {
            counts.merge(role, 1, Integer::sum);
        }
        return counts;
    }

    /** Every site but the slow ones at {@code qps}; the slow ones keep the pipeline's default rate. */
    Path rateOverrides(Path dir) throws IOException {
        StringBuilder lines = new StringBuilder();
        for (int s = 0; s < roles.length; s++) {
            if (roles[s] != Role.SLOW) {
                lines.append(host(s)).append(' ').append(qps).append('\n');
            }
        }
        return Files.writeString(dir.resolve("rate-overrides.txt"), lines);
    }

    /** The spacing the fetcher was told for each site, as the rate limiter derives it from the same file. */
    Duration[] intervals(Path rateOverrides) throws IOException {
        RateOverrides overrides = RateOverrides.parse(Files.readString(rateOverrides));
        Duration[] intervals = new Duration[roles.length];
        for (int s = 0; s < roles.length; s++) {
            intervals[s] = overrides.intervalFor(host(s), RateLimiter.Settings.DEFAULTS.spacing().defaultInterval());
        }
        return intervals;
    }

    /** The role of the site at {@code host}, if it is one of these sites. */
    Optional<Role> roleOf(String host) {
        return Optional.ofNullable(siteOf.get(host)).map(site -> roles[site]);
    }

    /** How many of the URLs go to the sites of each role. */
    Map<Role, Integer> urlsByRole() {
        Map<Role, Integer> counts = new EnumMap<>(Role.class);
        for (int i = 0; i < urls; i++) {
            counts.merge(roles[i % roles.length], 1, Integer::sum);
        }
        return counts;
    }

    /** Requests each site must get when the fetcher behaves: its robots.txt, then each URL's. */
    int[] plannedRequests() {
        int[] planned = new int[roles.length];
        java.util.Arrays.fill(planned, 1);
        for (int i = 0; i < urls; i++) {
            planned[i % roles.length] += kind(i).requests();
        }
        return planned;
    }

    /** Every URL's planned end state, by wire name. */
    Map<String, Integer> plannedCounts() {
        Map<String, Integer> counts = new TreeMap<>();
        for (int i = 0; i < urls; i++) {
            counts.merge(kind(i).expected, 1, Integer::sum);
        }
        return counts;
    }

    /** A copy of the log so far, in arrival order. */
    List<Hit> hits() {
        synchronized (hits) {
            return List.copyOf(hits);
        }
    }

    /** Requests for paths the soak never served (none when the fetcher follows no links). */
    List<RecordedRequest> strays() {
        synchronized (hits) {
            return List.copyOf(strays);
        }
    }

    /** Requests so far. */
    int requestCount() {
        synchronized (hits) {
            return hits.size() + strays.size();
        }
    }

    /** The status the site answered to a hit. */
    int status(Hit hit) {
        return hit.url() < 0 ? robotsStatus(roles[hit.site()]) : kind(hit.url()).status(hit.ordinal());
    }

    /**
     * What the sites served each URL, as an item state: the last answer's (200 fetched, 404 failed, a 5xx or 429
     * left as the last answer failed); never asked, {@code disallowed} for a path under the site's disallowed prefix
     * and {@code not requested} otherwise.
     */
    String[] servedStates(List<Hit> log) {
        int[] last = new int[urls];
        for (Hit hit : log) {
            if (hit.url() >= 0) {
                last[hit.url()] = status(hit);
            }
        }
        String[] states = new String[urls];
        for (int i = 0; i < urls; i++) {
            states[i] = last[i] == 0 ? (path(i).startsWith(DISALLOWED_PREFIX) && roles[i % roles.length] == Role.RULES
                    ? "disallowed" : "not requested")
                    : last[i] == 200 ? "fetched" : "failed";
        }
        return states;
    }

    /** The politeness report (testkit's) on the whole log: robots violations, duplicates, busiest second. */
    PolitenessReport report(List<Hit> log, Duration[] intervals) {
        List<Exchange> exchanges = new ArrayList<>(log.size());
        for (Hit hit : log) {
            Instant at = Instant.ofEpochSecond(hit.epochMicros() / 1_000_000, hit.epochMicros() % 1_000_000 * 1000);
            String path = hit.url() < 0 ? ROBOTS : path(hit.url());
            exchanges.add(new Exchange(new RecordedRequest(host(hit.site()), "GET", path, Map.of(), at),
                    Answer.of(status(hit))));
        }
        List<SiteRules> rules = new ArrayList<>();
        for (int s = 0; s < roles.length; s++) {
            int perSecond = (int) (1000 / intervals[s].toMillis());
            rules.add(new SiteRules(host(s), List.of(ROBOTS), roles[s] == Role.RULES ? List.of(DISALLOWED_PREFIX)
                    : List.of(), Math.max(1, perSecond), robotsTtl));
        }
        return PolitenessReport.from(exchanges, rules);
    }

    @Override
    public void close() {
        sites.close();
    }
}
