package io.spiderling.testkit;

import com.sun.net.httpserver.HttpExchange;
import io.spiderling.testkit.FarmOutcomes.Expected;
import io.spiderling.testkit.PolitenessReport.Answer;
import io.spiderling.testkit.PolitenessReport.Exchange;
import io.spiderling.testkit.PolitenessReport.SiteRules;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Eight local sites that misbehave in every way a polite fetcher must cope with, around ordinary pages, each site
 * allowing {@value #REQUESTS_PER_SECOND} requests per second ({@link #rateOverrides}). The farm knows what each URL
 * should come to ({@link #expected()}) and what it answered to each request, so {@link #report()} can judge the
 * fetcher from the sites' own logs.
 *
 * <p>The sites, by {@link Role}, at 127.0.0.2 to 127.0.0.9 in this order:
 * <ol>
 *   <li>{@code rules}: robots.txt disallows {@code /private/} for everyone and also {@code /drafts/} for our agent,
 *       whose group asks a Crawl-delay of 0.05 s, shorter than the 0.1 s interval (it must not speed anything up).
 *       Three private and two draft pages are submitted (disallowed); ten ordinary pages.</li>
 *   <li>{@code open}: robots.txt 404 (all allowed). A 64 MiB page, streamed from one small buffer (the fetcher cuts
 *       it at its body limit: fetched, truncated); a page that accepts the connection and never answers; a page that
 *       sends its headers and 512 bytes of a longer body, then nothing (both outlast the fetcher's timeouts on every
 *       attempt: failed); ten ordinary pages.</li>
 *   <li>{@code robots-unreachable}: robots.txt answers 503 every time. Its ten pages wait by design (RFC 9309 counts
 *       the rules as undefined; the fetcher neither fetches nor gives up within a run) and none may be requested.</li>
 *   <li>{@code robots-moved}: robots.txt redirects (301) to {@code /robots-moved.txt} on the same site, which
 *       disallows {@code /hidden/}. Three hidden pages, a page that redirects into {@code /hidden/}, ten ordinary
 *       pages.</li>
 *   <li>{@code redirects}: robots.txt allows everything. A same-site redirect ({@code /old} to {@code /new}, both
 *       submitted, {@code /new} first); a chain of three hops; a loop ({@code /loop/a} to {@code /loop/b} and back:
 *       failed); a cross-site redirect to a submitted page of {@code plain}; a cross-site redirect to a disallowed
 *       page of {@code rules}; ten ordinary pages. A redirect target that is also submitted must not be fetched twice:
 *       whichever of its two items comes second finds a fresh copy.</li>
 *   <li>{@code failing}: a page answering 500 always (failed after the retries); one answering 500, then 502, then
 *       200; one answering 503 twice, then 200 (both fetched); ten ordinary pages.</li>
 *   <li>{@code throttling}: a page answering 429 with {@code Retry-After: 2} once, then 200; ten ordinary pages.</li>
 *   <li>{@code plain}: robots.txt allows everything; twelve ordinary pages, one of them a redirect target.</li>
 * </ol>
 *
 * <p>Ordinary pages are small distinct HTML pages linking to the next page, to the next site and to a disallowed
 * page, which a fetcher that follows no links must leave alone. Every site, robots.txt included, answers through the
 * farm, which counts the requests for each path and answers the n-th by the path's script; {@link #exchanges()}
 * pairs the sites' recorded requests with those answers by the same count.
 */
public final class HostileFarm implements AutoCloseable {

    /** The rate every site allows. */
    public static final int REQUESTS_PER_SECOND = 10;

    /** The size of {@code open}'s big page. */
    public static final long BIG_PAGE_BYTES = 64L << 20;

    /**
     * How long the fetcher keeps a robots.txt answer that has no Cache-Control: its maximum, RFC 9309's 24 hours. A
     * run is far shorter, so any second fetch of a robots.txt that answered is a duplicate.
     */
    public static final Duration ROBOTS_FRESH_FOR = Duration.ofHours(24);

    private static final int ORDINARY_PAGES = 10;
    private static final String ROBOTS = "/robots.txt";
    private static final String TEXT = "text/plain; charset=utf-8";
    private static final String HTML = "text/html; charset=utf-8";

    /** What each site is for; its ordinal is the site's index in {@link #sites()}. */
    public enum Role {
        RULES, OPEN, ROBOTS_UNREACHABLE, ROBOTS_MOVED, REDIRECTS, FAILING, THROTTLING, PLAIN;

        /** {@code robots-unreachable}, as the report prints it. */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private final LocalSites sites;
    /** Holds the silent pages' handlers until the farm closes. */
    private final CountDownLatch closing = new CountDownLatch(1);
    private final Map<String, Script> scripts = new ConcurrentHashMap<>();
    private final Map<String, Expected> expected = new LinkedHashMap<>();
    private final List<SiteRules> rules = new ArrayList<>();

    private HostileFarm(LocalSites sites) {
        this.sites = sites;
    }

    /** Starts the farm, recording request times by the system clock. */
    public static HostileFarm start() {
        return start(Clock.systemUTC());
    }

    public static HostileFarm start(Clock clock) {
        HostileFarm farm = new HostileFarm(LocalSites.start(Role.values().length, clock));
        try {
            farm.build();
        } catch (RuntimeException e) {
            farm.close();
            throw e;
        }
        return farm;
    }

    private void build() {
        LocalSite rulesSite = site(Role.RULES);
        robots(rulesSite, "User-agent: *\nDisallow: /private/\n\nUser-agent: spiderling\nDisallow: /private/\n"
                + "Disallow: /drafts/\nCrawl-delay: 0.05\n");
        declare(rulesSite, List.of(ROBOTS), List.of("/private/", "/drafts/"));
        for (int i = 1; i <= 3; i++) {
            pageExpecting(rulesSite, "/private/" + i, Expected.DISALLOWED);
        }
        ordinaryPage(rulesSite, "/private/4"); // reached only through redirects' /to-private
        for (int i = 1; i <= 2; i++) {
            pageExpecting(rulesSite, "/drafts/" + i, Expected.DISALLOWED);
        }
        ordinaryPages(rulesSite, ORDINARY_PAGES);

        LocalSite open = site(Role.OPEN);
        script(open, ROBOTS, fixed(404, TEXT, "Not Found"));
        declare(open, List.of(ROBOTS), List.of());
        script(open, "/big", new Streamed(BIG_PAGE_BYTES));
        expected.put(open.url("/big"), Expected.FETCHED);
        script(open, "/hang", new Silent(closing, 0));
        expected.put(open.url("/hang"), Expected.FAILED);
        script(open, "/stall", new Silent(closing, 200));
        expected.put(open.url("/stall"), Expected.FAILED);
        ordinaryPages(open, ORDINARY_PAGES);

        LocalSite unreachable = site(Role.ROBOTS_UNREACHABLE);
        script(unreachable, ROBOTS, fixed(503, TEXT, "Service Unavailable"));
        declare(unreachable, List.of(ROBOTS), List.of());
        for (int i = 1; i <= ORDINARY_PAGES; i++) {
            pageExpecting(unreachable, "/page/" + i, Expected.WAITING);
        }

        LocalSite moved = site(Role.ROBOTS_MOVED);
        script(moved, ROBOTS, redirect(301, "/robots-moved.txt"));
        robots(moved, "/robots-moved.txt", "User-agent: *\nDisallow: /hidden/\n");
        declare(moved, List.of(ROBOTS, "/robots-moved.txt"), List.of("/hidden/"));
        for (int i = 1; i <= 3; i++) {
            pageExpecting(moved, "/hidden/" + i, Expected.DISALLOWED);
        }
        ordinaryPage(moved, "/hidden/4");
        script(moved, "/go-hidden", redirect(302, "/hidden/4"));
        expected.put(moved.url("/go-hidden"), Expected.DISALLOWED);
        ordinaryPages(moved, ORDINARY_PAGES);

        LocalSite redirects = site(Role.REDIRECTS);
        LocalSite plain = site(Role.PLAIN);
        robots(redirects, "User-agent: *\nDisallow:\n");
        declare(redirects, List.of(ROBOTS), List.of());
        pageExpecting(redirects, "/new", Expected.FETCHED_OR_SKIPPED);
        script(redirects, "/old", redirect(301, "/new"));
        expected.put(redirects.url("/old"), Expected.FETCHED);
        script(redirects, "/chain/1", redirect(301, "/chain/2"));
        script(redirects, "/chain/2", redirect(302, redirects.url("/chain/3")));
        script(redirects, "/chain/3", redirect(307, "/chain/end"));
        ordinaryPage(redirects, "/chain/end");
        expected.put(redirects.url("/chain/1"), Expected.FETCHED);
        script(redirects, "/loop/a", redirect(301, "/loop/b"));
        script(redirects, "/loop/b", redirect(301, "/loop/a"));
        expected.put(redirects.url("/loop/a"), Expected.FAILED);
        script(redirects, "/away", redirect(302, plain.url("/page/3")));
        expected.put(redirects.url("/away"), Expected.FETCHED);
        script(redirects, "/to-private", redirect(302, rulesSite.url("/private/4")));
        expected.put(redirects.url("/to-private"), Expected.DISALLOWED);
        ordinaryPages(redirects, ORDINARY_PAGES);

        LocalSite failing = site(Role.FAILING);
        robots(failing, "User-agent: *\nAllow: /\n");
        declare(failing, List.of(ROBOTS), List.of());
        script(failing, "/always-500", fixed(500, TEXT, "Internal Server Error"));
        expected.put(failing.url("/always-500"), Expected.FAILED);
        script(failing, "/flaky-5xx", new Sequence(List.of(fixed(500, TEXT, "Internal Server Error"),
                fixed(502, TEXT, "Bad Gateway"), page("Flaky 5xx, third time lucky", List.of()))));
        expected.put(failing.url("/flaky-5xx"), Expected.FETCHED);
        script(failing, "/flaky-503", new Sequence(List.of(fixed(503, TEXT, "Service Unavailable"),
                fixed(503, TEXT, "Service Unavailable"), page("Flaky 503, third time lucky", List.of()))));
        expected.put(failing.url("/flaky-503"), Expected.FETCHED);
        ordinaryPages(failing, ORDINARY_PAGES);

        LocalSite throttling = site(Role.THROTTLING);
        robots(throttling, "User-agent: *\nDisallow:\n");
        declare(throttling, List.of(ROBOTS), List.of());
        script(throttling, "/throttled", new Sequence(List.of(new Fixed(429, TEXT, bytes("Too Many Requests"),
                Map.of("Retry-After", "2")), page("Throttled once", List.of()))));
        expected.put(throttling.url("/throttled"), Expected.FETCHED);
        ordinaryPages(throttling, ORDINARY_PAGES);

        robots(plain, "User-agent: *\nDisallow:\n");
        declare(plain, List.of(ROBOTS), List.of());
        ordinaryPages(plain, ORDINARY_PAGES + 2);
        expected.put(plain.url("/page/3"), Expected.FETCHED_OR_SKIPPED);
    }

    public LocalSite site(Role role) {
        return sites.site(role.ordinal());
    }

    public LocalSites sites() {
        return sites;
    }

    /** Every URL to submit, site by site; within a site the misbehaving ones first. */
    public List<String> urls() {
        return List.copyOf(expected.keySet());
    }

    /** What each URL to submit should come to, in {@link #urls()}' order. */
    public Map<String, Expected> expected() {
        return Collections.unmodifiableMap(expected);
    }

    /** The URLs that wait on the unreachable robots.txt. */
    public List<String> waiting() {
        return expected.entrySet().stream().filter(e -> e.getValue() == Expected.WAITING).map(Map.Entry::getKey)
                .toList();
    }

    /** What each site declares: its robots paths, disallowed prefixes and rate. */
    public List<SiteRules> rules() {
        return List.copyOf(rules);
    }

    /** Host to {@code "127.0.0.2 rules"}, for printing. */
    public Map<String, String> names() {
        Map<String, String> names = new LinkedHashMap<>();
        for (Role role : Role.values()) {
            names.put(site(role).host(), site(role).host() + " " + role.label());
        }
        return names;
    }

    /** The rate overrides file giving every site {@value #REQUESTS_PER_SECOND} requests per second, in {@code dir}. */
    public Path rateOverrides(Path dir) throws IOException {
        return sites.rateOverrides(dir, REQUESTS_PER_SECOND);
    }

    /** Every request the sites recorded, in arrival order, with the answer the farm gave it. */
    public List<Exchange> exchanges() {
        Map<String, Integer> seen = new HashMap<>();
        List<Exchange> out = new ArrayList<>();
        for (RecordedRequest request : sites.allRequests()) {
            String key = scriptKey(request.host(), request.path());
            Script script = scripts.get(key);
            int ordinal = seen.merge(key, 1, Integer::sum) - 1;
            out.add(new Exchange(request, script == null ? Answer.of(404) : script.answer(ordinal)));
        }
        return out;
    }

    /** The politeness report of everything the sites saw so far. */
    public PolitenessReport report() {
        return PolitenessReport.from(exchanges(), rules);
    }

    /** Lets the silent pages' handlers go, then stops the sites. */
    @Override
    public void close() {
        closing.countDown();
        sites.close();
    }

    private String scriptKey(String host, String pathAndQuery) {
        String key = host + " " + pathAndQuery;
        if (scripts.containsKey(key)) {
            return key;
        }
        int query = pathAndQuery.indexOf('?');
        return query < 0 ? key : host + " " + pathAndQuery.substring(0, query);
    }

    private void declare(LocalSite site, List<String> robotsPaths, List<String> disallowed) {
        rules.add(new SiteRules(site.host(), robotsPaths, disallowed, REQUESTS_PER_SECOND, ROBOTS_FRESH_FOR));
    }

    private void robots(LocalSite site, String text) {
        robots(site, ROBOTS, text);
    }

    private void robots(LocalSite site, String path, String text) {
        script(site, path, fixed(200, TEXT, text));
    }

    private void ordinaryPages(LocalSite site, int count) {
        for (int i = 1; i <= count; i++) {
            pageExpecting(site, "/page/" + i, Expected.FETCHED);
        }
    }

    private void pageExpecting(LocalSite site, String path, Expected outcome) {
        ordinaryPage(site, path);
        expected.put(site.url(path), outcome);
    }

    /** A small page linking to the site's next page, the next site's first page and a disallowed page. */
    private void ordinaryPage(LocalSite site, String path) {
        int index = sites.sites().indexOf(site);
        LocalSite next = sites.site((index + 1) % sites.sites().size());
        String nextPage = path.matches("/page/\\d+")
                ? "/page/" + (Integer.parseInt(path.substring(6)) + 1) : "/page/1";
        script(site, path, page(Role.values()[index].label() + " " + path, List.of(site.url(nextPage),
                next.url("/page/1"), site(Role.RULES).url("/private/1"))));
    }

    private void script(LocalSite site, String path, Script script) {
        scripts.put(site.host() + " " + path, script);
        AtomicInteger ordinal = new AtomicInteger();
        site.serve(path, exchange -> script.serve(exchange, ordinal.getAndIncrement()));
    }

    private static Fixed page(String title, List<String> links) {
        StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html><head><title>").append(title)
                .append("</title><meta name=\"description\" content=\"A page of the hostile farm: ").append(title)
                .append(".\"></head>\n<body><h1>").append(title).append("</h1>\n");
        links.forEach(link -> html.append("<p><a href=\"").append(link).append("\">").append(link).append("</a></p>\n"));
        return fixed(200, HTML, html.append("</body></html>\n").toString());
    }

    private static Fixed fixed(int status, String contentType, String body) {
        return new Fixed(status, contentType, bytes(body), Map.of());
    }

    private static Fixed redirect(int status, String location) {
        return new Fixed(status, TEXT, new byte[0], Map.of("Location", location));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** How a path answers its n-th request (from 0), and what that answer was, for the report. */
    private interface Script {
        Answer answer(int ordinal);

        void serve(HttpExchange exchange, int ordinal) throws IOException;
    }

    private record Fixed(int status, String contentType, byte[] body, Map<String, String> headers)
            implements Script {
        @Override
        public Answer answer(int ordinal) {
            return Answer.of(status);
        }

        @Override
        public void serve(HttpExchange exchange, int ordinal) throws IOException {
            exchange.getResponseHeaders().set("Content-Type", contentType);
            headers.forEach(exchange.getResponseHeaders()::set);
            // -1: no body; 0 would mean chunked.
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                exchange.getResponseBody().write(body);
            }
        }
    }

    /** The scripts in turn, the last one for ever after. */
    private record Sequence(List<Fixed> answers) implements Script {
        private Fixed at(int ordinal) {
            return answers.get(Math.min(ordinal, answers.size() - 1));
        }

        @Override
        public Answer answer(int ordinal) {
            return at(ordinal).answer(ordinal);
        }

        @Override
        public void serve(HttpExchange exchange, int ordinal) throws IOException {
            at(ordinal).serve(exchange, ordinal);
        }
    }

    /**
     * Accepts the request and goes silent until the farm closes: at once ({@code status} 0), or after the headers
     * and 512 bytes of a 4 KiB body.
     */
    private record Silent(CountDownLatch closing, int status) implements Script {
        @Override
        public Answer answer(int ordinal) {
            return status == 0 ? Answer.NONE : Answer.stalled(status);
        }

        @Override
        public void serve(HttpExchange exchange, int ordinal) throws IOException {
            if (status != 0) {
                exchange.getResponseHeaders().set("Content-Type", HTML);
                exchange.sendResponseHeaders(status, 4096);
                byte[] start = new byte[512];
                Arrays.fill(start, (byte) ' ');
                exchange.getResponseBody().write(start);
                exchange.getResponseBody().flush();
            }
            try {
                closing.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A page of {@code length} bytes, written from one 64 KiB buffer until done or the client goes away. */
    private record Streamed(long length) implements Script {
        private static final byte[] HEAD = bytes("<!DOCTYPE html>\n<html><head><title>The big page</title></head>"
                + "<body>\n");
        private static final byte[] FILLER = bytes("<p>All work and no play makes a big page.</p>\n".repeat(1400));

        @Override
        public Answer answer(int ordinal) {
            return Answer.of(200);
        }

        @Override
        public void serve(HttpExchange exchange, int ordinal) throws IOException {
            exchange.getResponseHeaders().set("Content-Type", HTML);
            exchange.sendResponseHeaders(200, length);
            OutputStream out = exchange.getResponseBody();
            try {
                out.write(HEAD);
                long left = length - HEAD.length;
                while (left > 0) {
                    int n = (int) Math.min(FILLER.length, left);
                    out.write(FILLER, 0, n);
                    left -= n;
                }
            } catch (IOException e) {
                // The fetcher stopped reading at its body limit and closed the connection, as it should.
            }
        }
    }
}
