package io.spiderling.testkit;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * Several local web sites, each on its own host, for testing per-host politeness without DNS or a network.
 *
 * <p>Site {@code i} listens on {@code 127.0.0.(i + 2)}: Linux routes all of 127.0.0.0/8 to the loopback interface,
 * so each site is a distinct host to a crawler, with no setup. {@code 127.0.0.1} is left to the emulators. Beyond
 * the 253 addresses of 127.0.0.0/24 the sites go on at {@code 127.0.1.2} … {@code 127.0.1.254}, {@code 127.0.2.2} …
 * (no address ending in .0, .1 or .255), so a soak can have a thousand sites, each its own host. Every request is
 * recorded, including those answered 404 because no response was set for the path.
 */
public final class LocalSites implements AutoCloseable {

    private static final int FIRST_HOST = 2;
    private static final int HOSTS_PER_BLOCK = 254 - FIRST_HOST + 1;
    /** 127.0.0.x to 127.0.255.x; each server costs a few file descriptors and a dispatcher thread. */
    private static final int MAX_SITES = HOSTS_PER_BLOCK * 256;

    private final Clock clock;
    /**
     * Platform threads, not virtual ones: a site stands for another machine, so its clock reading must not wait for
     * the client's work. The runner's fetch invocations are virtual threads in the same JVM, and a virtual thread is
     * never preempted: with both carriers busy a handler's arrival time was read up to 155 ms late, and the politeness
     * report saw two requests sent 1.11 s apart arrive 0.96 s apart.
     */
    private final ExecutorService executor = Executors.newCachedThreadPool(
            Thread.ofPlatform().name("local-site-", 0).daemon().factory());
    private final List<LocalSite> sites = new ArrayList<>();
    private final List<RecordedRequest> requests = new ArrayList<>();
    /** Where requests go instead of {@link #requests}, when set ({@link #streamRequests}). */
    private volatile Consumer<RecordedRequest> sink;
    private volatile SiteLatency latency = SiteLatency.NONE;

    private LocalSites(Clock clock) {
        this.clock = clock;
    }

    /** Starts {@code count} empty sites on 127.0.0.2, 127.0.0.3, …, recording times by the system clock in UTC. */
    public static LocalSites start(int count) {
        return start(count, Clock.systemUTC());
    }

    /** Starts {@code count} empty sites, recording request times by {@code clock}. */
    public static LocalSites start(int count, Clock clock) {
        return start(count, clock, 0);
    }

    /**
     * Starts {@code count} empty sites on {@code port} of each address when it is free there, else on a free port, so
     * that runs one after the other see the same URLs. 0 takes a free port.
     */
    public static LocalSites start(int count, Clock clock, int port) {
        if (count < 1 || count > MAX_SITES) {
            throw new IllegalArgumentException("count must be between 1 and " + MAX_SITES + ", was " + count);
        }
        LocalSites localSites = new LocalSites(clock);
        try {
            for (int i = 0; i < count; i++) {
                HttpServer server = bind(address(i), port);
                server.setExecutor(localSites.executor);
                localSites.sites.add(new LocalSite(server, localSites));
                server.start();
            }
        } catch (IOException e) {
            localSites.close();
            throw new UncheckedIOException("Could not start local site " + (localSites.sites.size() + 1), e);
        }
        return localSites;
    }

    /** Site {@code index}'s address: 127.0.0.2 … 127.0.0.254, then 127.0.1.2 …, and so on. */
    static String address(int index) {
        return "127.0." + index / HOSTS_PER_BLOCK + "." + (FIRST_HOST + index % HOSTS_PER_BLOCK);
    }

    private static HttpServer bind(String address, int port) throws IOException {
        if (port != 0) {
            try {
                return HttpServer.create(new InetSocketAddress(address, port), 0);
            } catch (java.net.BindException inUse) {
                // taken by someone else: any free port serves as well, with other URLs
            }
        }
        return HttpServer.create(new InetSocketAddress(address, 0), 0);
    }

    /**
     * Starts {@code count} sites, each serving {@code pagesPerSite} HTML pages at {@code /page/1} … with a distinct
     * title and meta description, such as "Site 2, page 3".
     */
    public static LocalSites demoSites(int count, int pagesPerSite) {
        return demoSites(count, pagesPerSite, 0);
    }

    /** {@link #demoSites(int, int)} on {@code port} where it is free (see {@link #start(int, Clock, int)}). */
    public static LocalSites demoSites(int count, int pagesPerSite, int port) {
        LocalSites localSites = start(count, Clock.systemUTC(), port);
        for (int s = 1; s <= count; s++) {
            LocalSite site = localSites.site(s - 1);
            for (int p = 1; p <= pagesPerSite; p++) {
                String title = "Site " + s + ", page " + p;
                site.page("/page/" + p, demoPage(title, p, pagesPerSite));
            }
        }
        return localSites;
    }

    /**
     * A demo page shaped as real ones are: navigation, an article (paragraphs, a list, a table, a code block and
     * links to its neighbours) and a footer, so that what a run extracts, and the Markdown of its main content, show
     * something.
     */
    private static String demoPage(String title, int page, int pages) {
        int next = page % pages + 1;
        return """
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>%1$s</title>
                <meta name="description" content="About %1$s."></head>
                <body>
                <header><nav><a href="/">Home</a> | <a href="/page/1">First page</a> | <a href="/about">About us</a>
                </nav></header>
                <main><article>
                <h1>%1$s</h1>
                <p>This is page %2$d of a local demo site that Spiderling fetches politely: it asks for robots.txt
                first, keeps to the site's rate, and stores what it fetched by the hash of its bytes.</p>
                <p>Each page links to the <a href="/page/%3$d">next page</a>, so the metadata of every page lists an
                outlink, and the Markdown of its main content keeps the link, made absolute.</p>
                <h2>What a fetch records</h2>
                <ul><li>the status, the headers and the timings;</li><li>the title, the description and the
                language;</li><li>the links of the page.</li></ul>
                <table><thead><tr><th>Page</th><th>Links to</th><th>Of</th></tr></thead>
                <tbody><tr><td>%2$d</td><td>%3$d</td><td>%4$d pages</td></tr>
                <tr><td>%3$d</td><td>%5$d</td><td>%4$d pages</td></tr></tbody></table>
                <pre><code class="language-shell">./spiderling fetch --demo --markdown</code></pre>
                </article></main>
                <footer><p>Demo footer: privacy, terms and contact links live here.</p></footer>
                </body></html>
                """.formatted(title, page, next, pages, next % pages + 1);
    }

    public LocalSite site(int index) {
        return sites.get(index);
    }

    public List<LocalSite> sites() {
        return List.copyOf(sites);
    }

    /**
     * Writes a rate overrides file ({@code spiderling.fetch.rate-overrides-file}) giving every site {@code qps}
     * requests per second, so a test that is not about the default rate need not wait for it.
     */
    public Path rateOverrides(Path dir, int qps) throws java.io.IOException {
        StringBuilder lines = new StringBuilder();
        sites.forEach(site -> lines.append(site.host()).append(' ').append(qps).append('\n'));
        return java.nio.file.Files.writeString(dir.resolve("rate-overrides.txt"), lines);
    }

    /** Every site answers with {@code latency} from now on (none by default). */
    public LocalSites latency(SiteLatency latency) {
        this.latency = Objects.requireNonNull(latency, "latency");
        return this;
    }

    SiteLatency latency() {
        return latency;
    }

    /**
     * Hands every request from now on to {@code sink}, in arrival order and one at a time, instead of keeping it:
     * for runs long enough that a log of every request and its headers would show up as heap growth.
     * {@link #allRequests()} and {@link LocalSite#requests()} then hold only what came before. The sink runs on the
     * sites' handler threads under the recording lock, so it must be quick.
     */
    public LocalSites streamRequests(Consumer<RecordedRequest> sink) {
        this.sink = Objects.requireNonNull(sink, "sink");
        return this;
    }

    /** What all sites received, in arrival order. */
    public List<RecordedRequest> allRequests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    void record(String host, String method, String path, Headers headers) {
        // Time and append under one lock, so arrival order and timestamp order agree.
        synchronized (requests) {
            RecordedRequest request = new RecordedRequest(host, method, path, headers, clock.instant());
            Consumer<RecordedRequest> to = sink;
            if (to == null) {
                requests.add(request);
            } else {
                to.accept(request);
            }
        }
    }

    @Override
    public void close() {
        sites.forEach(LocalSite::stop);
        executor.close();
    }
}
