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
 * Ten local sites that misbehave in every way a polite fetcher must cope with, around ordinary pages, each site
 * allowing {@value #REQUESTS_PER_SECOND} requests per second but one, which allows
 * {@value #SLOW_REQUESTS_PER_SECOND} ({@link #rateOverrides}). The farm knows what each URL should come to
 * ({@link #expected()}) and what it answered to each request, so {@link #report()} can judge the fetcher from the
 * sites' own logs.
 *
 * <p>The sites, by {@link Role}, at 127.0.0.2 to 127.0.0.11 in this order:
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
 *   <li>{@code slow-redirects}: {@value #SLOW_REQUESTS_PER_SECOND} request per second, robots.txt allows everything.
 *       Four 302 chains of three hops ({@code /r/3/n} to {@code /r/2/n} to {@code /r/1/n} to {@code /r/end/n}: fetched)
 *       and a loop of three ({@code /loop/1} to {@code /loop/2} to {@code /loop/3} and back: failed); five ordinary
 *       pages. At one request a
 *       second the chains cannot all take their next slot at once, so they park part-way; a chain that starts again
 *       from its first hop asks a hop twice, which the report counts as a duplicate.</li>
 *   <li>{@code query-rules}: robots.txt disallows {@code /q/n?qux=taz&baz=http://foo.bar?tar&par}, a query in the
 *       order a client writes it, for n from 1 to 4; the other spelling of each, with the parameters in the order a
 *       normalizer sorts them to ({@code ?baz=…&qux=taz}), is allowed, and both share one key. The batch holds both
 *       spellings of {@code /q/1} (the disallowed one first: disallowed, nothing requested) and of {@code /q/2} (the
 *       allowed one first: fetched); {@link #followUps()} asks for {@code /q/3} and {@code /q/4} in two batches, one
 *       spelling each, in both orders. The disallowed request-target must never be requested.</li>
 * </ol>
 *
 * <p>Ordinary pages are small distinct HTML pages linking to the next page, to the next site and to a disallowed
 * page, which a fetcher that follows no links must leave alone. Every site, robots.txt included, answers through the
 * farm, which counts the requests for each path and answers the n-th by the path's script; {@link #exchanges()}
 * pairs the sites' recorded requests with those answers by the same count.
 */
public final class HostileFarm implements AutoCloseable {

    /** The rate every site allows but {@code slow-redirects}. */
    public static final int REQUESTS_PER_SECOND = 10;

    /** The rate {@code slow-redirects} allows: its chains park part-way. */
    public static final int SLOW_REQUESTS_PER_SECOND = 1;

    /** A query in the order a client writes it; {@code query-rules}' robots.txt disallows it on {@code /q/n}. */
    public static final String CLIENT_QUERY = "?qux=taz&baz=http://foo.bar?tar&par";

    /** The same parameters sorted by name, as the dedup key writes them: allowed. */
    public static final String SORTED_QUERY = "?baz=http://foo.bar?tar&par&qux=taz";

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
        RULES, OPEN, ROBOTS_UNREACHABLE, ROBOTS_MOVED, REDIRECTS, FAILING, THROTTLING, PLAIN, SLOW_REDIRECTS,
        QUERY_RULES;

        /** The requests per second the site allows. */
        public int requestsPerSecond() {
            return this == SLOW_REDIRECTS ? SLOW_REQUESTS_PER_SECOND : REQUESTS_PER_SECOND;
        }

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
    /** The batch's lines, in order: every expected URL, and the other spellings of some. */
    private final List<String> lines = new ArrayList<>();
    private final List<Batch> followUps = new ArrayList<>();
    private final List<SiteRules> rules = new ArrayList<>();

    /**
     * A batch to submit after {@link #urls()}, right after the one before it.
     *
     * @param urls its lines
     * @param expected what each of its items should come to, by the item's URL (the key both spellings share)
     */
    public record Batch(List<String> urls, Map<String, Expected> expected) {
        public Batch {
            urls = List.copyOf(urls);
            expected = Collections.unmodifiableMap(new LinkedHashMap<>(expected));
        }
    }

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
        expect(open.url("/big"), Expected.FETCHED);
        script(open, "/hang", new Silent(closing, 0));
        expect(open.url("/hang"), Expected.FAILED);
        script(open, "/stall", new Silent(closing, 200));
        expect(open.url("/stall"), Expected.FAILED);
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
        expect(moved.url("/go-hidden"), Expected.DISALLOWED);
        ordinaryPages(moved, ORDINARY_PAGES);

        LocalSite redirects = site(Role.REDIRECTS);
        LocalSite plain = site(Role.PLAIN);
        robots(redirects, "User-agent: *\nDisallow:\n");
        declare(redirects, List.of(ROBOTS), List.of());
        pageExpecting(redirects, "/new", Expected.FETCHED_OR_SKIPPED);
        script(redirects, "/old", redirect(301, "/new"));
        expect(redirects.url("/old"), Expected.FETCHED);
        script(redirects, "/chain/1", redirect(301, "/chain/2"));
        script(redirects, "/chain/2", redirect(302, redirects.url("/chain/3")));
        script(redirects, "/chain/3", redirect(307, "/chain/end"));
        ordinaryPage(redirects, "/chain/end");
        expect(redirects.url("/chain/1"), Expected.FETCHED);
        script(redirects, "/loop/a", redirect(301, "/loop/b"));
        script(redirects, "/loop/b", redirect(301, "/loop/a"));
        expect(redirects.url("/loop/a"), Expected.FAILED);
        script(redirects, "/away", redirect(302, plain.url("/page/3")));
        expect(redirects.url("/away"), Expected.FETCHED);
        script(redirects, "/to-private", redirect(302, rulesSite.url("/private/4")));
        expect(redirects.url("/to-private"), Expected.DISALLOWED);
        ordinaryPages(redirects, ORDINARY_PAGES);

        LocalSite failing = site(Role.FAILING);
        robots(failing, "User-agent: *\nAllow: /\n");
        declare(failing, List.of(ROBOTS), List.of());
        script(failing, "/always-500", fixed(500, TEXT, "Internal Server Error"));
        expect(failing.url("/always-500"), Expected.FAILED);
        script(failing, "/flaky-5xx", new Sequence(List.of(fixed(500, TEXT, "Internal Server Error"),
                fixed(502, TEXT, "Bad Gateway"), page("Flaky 5xx, third time lucky", List.of()))));
        expect(failing.url("/flaky-5xx"), Expected.FETCHED);
        script(failing, "/flaky-503", new Sequence(List.of(fixed(503, TEXT, "Service Unavailable"),
                fixed(503, TEXT, "Service Unavailable"), page("Flaky 503, third time lucky", List.of()))));
        expect(failing.url("/flaky-503"), Expected.FETCHED);
        ordinaryPages(failing, ORDINARY_PAGES);

        LocalSite throttling = site(Role.THROTTLING);
        robots(throttling, "User-agent: *\nDisallow:\n");
        declare(throttling, List.of(ROBOTS), List.of());
        script(throttling, "/throttled", new Sequence(List.of(new Fixed(429, TEXT, bytes("Too Many Requests"),
                Map.of("Retry-After", "2")), page("Throttled once", List.of()))));
        expect(throttling.url("/throttled"), Expected.FETCHED);
        ordinaryPages(throttling, ORDINARY_PAGES);

        robots(plain, "User-agent: *\nDisallow:\n");
        declare(plain, List.of(ROBOTS), List.of());
        ordinaryPages(plain, ORDINARY_PAGES + 2);
        expect(plain.url("/page/3"), Expected.FETCHED_OR_SKIPPED);

        buildSlowRedirects(site(Role.SLOW_REDIRECTS));
        buildQueryRules(site(Role.QUERY_RULES));
    }

    private void buildSlowRedirects(LocalSite slow) {
        robots(slow, "User-agent: *\nDisallow:\n");
        declare(slow, List.of(ROBOTS), List.of());
        for (int n = 1; n <= 4; n++) {
            script(slow, "/r/3/" + n, redirect(302, "/r/2/" + n));
            script(slow, "/r/2/" + n, redirect(302, "/r/1/" + n));
            script(slow, "/r/1/" + n, redirect(302, "/r/end/" + n));
            ordinaryPage(slow, "/r/end/" + n);
            expect(slow.url("/r/3/" + n), Expected.FETCHED);
        }
        script(slow, "/loop/1", redirect(302, "/loop/2"));
        script(slow, "/loop/2", redirect(302, "/loop/3"));
        script(slow, "/loop/3", redirect(302, "/loop/1"));
        expect(slow.url("/loop/1"), Expected.FAILED);
        ordinaryPages(slow, 5);
    }

    private void buildQueryRules(LocalSite site) {
        List<String> disallowed = new ArrayList<>();
        StringBuilder text = new StringBuilder("User-agent: *\n");
        for (int n = 1; n <= 4; n++) {
            ordinaryPage(site, "/q/" + n);
            disallowed.add("/q/" + n + CLIENT_QUERY);
            text.append("Disallow: /q/").append(n).append(CLIENT_QUERY).append('\n');
        }
        robots(site, text.toString());
        declare(site, List.of(ROBOTS), disallowed);
        // One batch, both spellings: the first one written is the one requested, or refused.
        expect(site.url("/q/1" + SORTED_QUERY), Expected.DISALLOWED);
        lines.add(lines.size() - 1, site.url("/q/1" + CLIENT_QUERY));
        expect(site.url("/q/2" + SORTED_QUERY), Expected.FETCHED);
        lines.add(site.url("/q/2" + CLIENT_QUERY));
        ordinaryPages(site, ORDINARY_PAGES);
        // Two batches, one spelling each, in both orders: the second batch joins the first's fetch, or finds its
        // outcome recorded, or (once the first has ended) asks with its own spelling, if robots.txt allows it.
        String q3Disallowed = site.url("/q/3" + CLIENT_QUERY);
        String q3 = site.url("/q/3" + SORTED_QUERY);
        String q4Disallowed = site.url("/q/4" + CLIENT_QUERY);
        String q4 = site.url("/q/4" + SORTED_QUERY);
        followUps.add(new Batch(List.of(q3Disallowed, q4), Map.of(q3, Expected.DISALLOWED, q4, Expected.FETCHED)));
        followUps.add(new Batch(List.of(q3, q4Disallowed),
                Map.of(q3, Expected.DISALLOWED_OR_FETCHED, q4, Expected.FETCHED_OR_SKIPPED)));
    }

    public LocalSite site(Role role) {
        return sites.site(role.ordinal());
    }

    public LocalSites sites() {
        return sites;
    }

    /**
     * Every line to submit as one batch, site by site; within a site the misbehaving ones first. Two URLs are there
     * in two spellings that share a key ({@code query-rules}), so the batch has two lines more than items.
     */
    public List<String> urls() {
        return List.copyOf(lines);
    }

    /** What each item of the batch should come to, by its URL (a key), in {@link #urls()}' order. */
    public Map<String, Expected> expected() {
        return Collections.unmodifiableMap(expected);
    }

    /** The batches to submit after {@link #urls()}, in order, each right after the one before. */
    public List<Batch> followUps() {
        return List.copyOf(followUps);
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

    /** The rate overrides file giving every site the rate of its role ({@link Role#requestsPerSecond}), in {@code dir}. */
    public Path rateOverrides(Path dir) throws IOException {
        StringBuilder lines = new StringBuilder();
        for (Role role : Role.values()) {
            lines.append(site(role).host()).append(' ').append(role.requestsPerSecond()).append('\n');
        }
        return java.nio.file.Files.writeString(dir.resolve("rate-overrides.txt"), lines);
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
        int perSecond = Role.values()[sites.sites().indexOf(site)].requestsPerSecond();
        rules.add(new SiteRules(site.host(), robotsPaths, disallowed, perSecond, ROBOTS_FRESH_FOR));
    }

    /** An item of the batch, submitted in this spelling (once; expecting it again changes the outcome). */
    private void expect(String url, Expected outcome) {
        if (expected.put(url, outcome) == null) {
            lines.add(url);
        }
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
        expect(site.url(path), outcome);
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
