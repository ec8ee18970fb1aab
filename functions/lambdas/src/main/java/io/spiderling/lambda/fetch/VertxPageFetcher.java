package io.spiderling.lambda.fetch;

import io.spiderling.core.extract.PageDirectivesParser;
import io.spiderling.core.fetch.FailureKind;
import io.spiderling.core.fetch.FetchRequest;
import io.spiderling.lambda.internal.CheckedAddress;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.net.AddressPolicy;
import io.spiderling.core.net.BodyLimits;
import io.spiderling.core.net.BoundedBody;
import io.spiderling.core.net.GzipDeflateDecoder;
import io.spiderling.core.net.Ipv4Spelling;
import io.spiderling.core.signing.Authority;
import io.spiderling.core.signing.RequestSigner;
import io.spiderling.core.url.RequestUrl;
import io.spiderling.core.port.PageFetcher;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.spiderling.core.fetch.WireExchange;
import io.vertx.core.http.HttpVersion;
import java.io.ByteArrayOutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.zip.ZipException;
import javax.net.ssl.SSLException;

/**
 * {@link PageFetcher} on the Vert.x HTTP client, with the safety rules applied on the wire.
 *
 * <ul>
 *   <li><b>SSRF guard.</b> The host is resolved here and every address checked with {@link AddressPolicy}; the
 *       connection goes to exactly the address checked ({@link RequestOptions#setServer}), with the name kept for the
 *       Host header and TLS, so a DNS answer that changes between check and connect (rebinding) cannot slip through.
 *       The URL is read as a browser reads it ({@link RequestUrl}): a host spelling an IPv4 address other than as a
 *       dotted quad ({@code 2130706433}, {@code 0x7f.1}) is that address, never resolved, and checked as such. Each
 *       redirect hop is a fetch of its own, checked again.</li>
 *   <li><b>Timeouts.</b> Connect, idle (no byte for that long, which bounds the time to first byte), and total,
 *       which a site sending a byte now and then cannot outlast: either one resets the request.</li>
 *   <li><b>Body.</b> Streamed into a {@link BoundedBody}: cut at the cap and flagged, never held beyond it. gzip and
 *       deflate are decoded here, chunk by chunk, so a decompression bomb is stopped by its ratio before it grows.</li>
 *   <li><b>Capture.</b> When the request asks, the exchange is kept as it went over the wire
 *       ({@link WireExchange}): the request bytes copied from the connection ({@link RequestTap}), the status line and
 *       headers as received, and the payload before content decoding.</li>
 *   <li><b>Redirects</b> are never followed here: they go back to the fetch stage, which checks each hop against
 *       robots.txt and the rate limit.</li>
 * </ul>
 */
public final class VertxPageFetcher implements PageFetcher, AutoCloseable {

    /** Headers returned to the caller; the fetch stage keeps the ones it stores. */
    private static final List<String> HEADERS = List.of("content-type", "content-length", "etag", "last-modified",
            "cache-control", "expires", "retry-after", "location", "date", "age", "content-encoding",
            PageDirectivesParser.HEADER);

    /**
     * How requests are made.
     *
     * @param userAgent sent with every request; it names the crawler and a contact URL
     * @param firstByteTimeout the longest silence from the site (no byte) before giving up
     * @param maxBodyBytes bodies are cut at this size and flagged as truncated
     * @param allowLoopback local and test runs only: allow 127.0.0.0/8 past the SSRF guard (never 169.254.0.0/16)
     * @param connectionsPerHost the most connections open to one address at once: a site's places in flight, which
     *     its rate item bounds anyway (a request waiting for a connection past its send window is not sent); 5, Vert.x's
     *     default, unless set
     * @param signer signs every request for Web Bot Auth (ADR 21); empty, the default, sends them unsigned
     */
    public record Settings(String userAgent, Duration connectTimeout, Duration firstByteTimeout, Duration totalTimeout,
            long maxBodyBytes, boolean allowLoopback, int connectionsPerHost, Optional<RequestSigner> signer) {

        public static Builder builder() {
            return new Builder();
        }

        /** Named steps, so three durations in a row cannot be swapped unnoticed. */
        public static final class Builder {
            private String userAgent;
            private Duration connectTimeout;
            private Duration firstByteTimeout;
            private Duration totalTimeout;
            private long maxBodyBytes;
            private boolean allowLoopback;
            private int connectionsPerHost = 5;
            private Optional<RequestSigner> signer = Optional.empty();

            public Builder userAgent(String value) {
                userAgent = value;
                return this;
            }

            public Builder connectTimeout(Duration value) {
                connectTimeout = value;
                return this;
            }

            public Builder firstByteTimeout(Duration value) {
                firstByteTimeout = value;
                return this;
            }

            public Builder totalTimeout(Duration value) {
                totalTimeout = value;
                return this;
            }

            public Builder maxBodyBytes(long value) {
                maxBodyBytes = value;
                return this;
            }

            public Builder allowLoopback(boolean value) {
                allowLoopback = value;
                return this;
            }

            public Builder connectionsPerHost(int value) {
                connectionsPerHost = value;
                return this;
            }

            public Builder signer(Optional<RequestSigner> value) {
                signer = java.util.Objects.requireNonNull(value, "signer");
                return this;
            }

            public Settings build() {
                return new Settings(java.util.Objects.requireNonNull(userAgent, "userAgent"),
                        java.util.Objects.requireNonNull(connectTimeout, "connectTimeout"),
                        java.util.Objects.requireNonNull(firstByteTimeout, "firstByteTimeout"),
                        java.util.Objects.requireNonNull(totalTimeout, "totalTimeout"), maxBodyBytes, allowLoopback,
                        connectionsPerHost, signer);
            }
        }
    }

    private final HttpClient client;
    private final Settings settings;
    private final AddressPolicy addresses;
    private final BodyLimits limits;
    private final Function<String, List<InetAddress>> resolver;
    private final Clock clock;
    private final Vertx vertx;

    /** A fetcher that resolves names with the system resolver ({@link CheckedAddress#resolve}). */
    public VertxPageFetcher(Vertx vertx, Settings settings) {
        this(vertx, settings, CheckedAddress::resolve);
    }

    /** A fetcher that reads send windows ({@link FetchRequest#send}) by the system clock. */
    public VertxPageFetcher(Vertx vertx, Settings settings, Function<String, List<InetAddress>> resolver) {
        this(vertx, settings, resolver, Clock.systemUTC());
    }

    /**
     * @param resolver every address of a host name (no brackets); empty when it does not resolve. Asked once per
     *     fetch, and only for names: IP literals are parsed, never looked up
     * @param clock the clock that a request's send window ({@link FetchRequest#send}) is read by: the one the
     *     rate slots are granted by
     */
    public VertxPageFetcher(Vertx vertx, Settings settings, Function<String, List<InetAddress>> resolver,
            Clock clock) {
        this.clock = java.util.Objects.requireNonNull(clock, "clock");
        this.vertx = vertx;
        this.resolver = java.util.Objects.requireNonNull(resolver, "resolver");
        this.settings = settings;
        this.addresses = settings.allowLoopback() ? AddressPolicy.allowingLoopback() : AddressPolicy.strict();
        this.limits = BodyLimits.defaults().withMaxBytes((int) Math.min(Integer.MAX_VALUE, settings.maxBodyBytes()));
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) settings.connectTimeout().toMillis())
                .setKeepAlive(true)
                .setForceSni(true)
                .setVerifyHost(true)
                .setTryUseCompression(false), // decoded here, under the ratio guard
                new PoolOptions().setHttp1MaxSize(settings.connectionsPerHost()));
    }

    /**
     * A quarter of a second: the caller may wake that much before a request's window and leave the wait to the
     * event loop, whose timer is on a platform thread and next to the write, so what is lost in between (waking a
     * virtual thread on a busy core, opening the connection) no longer makes the request late for its window.
     */
    @Override
    public Duration lead() {
        return LEAD;
    }

    private static final Duration LEAD = Duration.ofMillis(250);

    @Override
    public FetchResult fetch(FetchRequest request) {
        long start = System.nanoTime();
        if (missed(request)) {
            return late(request, start);
        }
        RequestUrl uri;
        try {
            // As a browser reads it, numbers in the host included (0x7f.1 is 127.0.0.1): the address checked below is
            // the one connected to. The pipeline's request URLs are so serialized already, and stay as they are.
            uri = RequestUrl.from(request.url());
        } catch (IllegalArgumentException e) {
            return new FetchResult.Failure(FailureKind.BLOCKED, "not fetched: " + e.getMessage(), elapsed(start));
        }
        InetAddress address;
        switch (destination(uri, start)) {
            case Destination.Refused refused -> {
                return refused.failure();
            }
            case Destination.Checked checked -> address = checked.address();
        }
        long left = settings.totalTimeout().toMillis() - Duration.ofNanos(System.nanoTime() - start).toMillis();
        if (left <= 0) {
            return totalTimeout(start);
        }
        return new Exchange(request, address, start).run(options(uri, address, request));
    }

    /** Where a request may go: the one address checked, or why nowhere. */
    private sealed interface Destination {
        record Checked(InetAddress address) implements Destination {}

        record Refused(FetchResult.Failure failure) implements Destination {}
    }

    /** The address to connect to: a literal is parsed, never looked up; a name is resolved once, here. */
    private Destination destination(RequestUrl uri, long start) {
        boolean bracketed = uri.host().startsWith("[");
        String host = bracketed ? uri.host().substring(1, uri.host().length() - 1) : uri.host();
        try {
            List<InetAddress> resolved = bracketed || Ipv4Spelling.isDottedQuad(host)
                    ? List.of(InetAddress.getByName(host)) : resolver.apply(host);
            if (resolved == null || resolved.isEmpty()) {
                return unknownHost(host, start);
            }
            return switch (addresses.checkAll(resolved)) {
                case AddressPolicy.Verdict.Refused refused -> new Destination.Refused(new FetchResult.Failure(
                        FailureKind.BLOCKED, refused.reason() + " address " + refused.address().getHostAddress(),
                        elapsed(start)));
                case AddressPolicy.Verdict.Allowed allowed -> new Destination.Checked(allowed.address());
            };
        } catch (UnknownHostException e) {
            return unknownHost(host, start);
        }
    }

    private static Destination unknownHost(String host, long start) {
        return new Destination.Refused(new FetchResult.Failure(FailureKind.DNS, "unknown host " + host,
                elapsed(start)));
    }

    private RequestOptions options(RequestUrl uri, InetAddress address, FetchRequest request) {
        RequestOptions options = CheckedAddress.request(HttpMethod.GET, uri, address)
                .setConnectTimeout(settings.connectTimeout().toMillis())
                .setIdleTimeout(settings.firstByteTimeout().toMillis())
                .addHeader("User-Agent", settings.userAgent())
                .addHeader("Accept-Encoding", "gzip, deflate");
        request.ifNoneMatch().ifPresent(tag -> options.addHeader("If-None-Match", tag));
        request.ifModifiedSince().ifPresent(date -> options.addHeader("If-Modified-Since", date));
        sign(options, uri);
        return options;
    }

    /**
     * Web Bot Auth (ADR 21): the signature headers, made here on the caller's thread (a worker, never the event
     * loop), so that the Ed25519 signature and a key set re-read now and then block no connection's I/O. A request
     * held for its send window keeps its signature, whose validity outlasts any hold.
     */
    private void sign(RequestOptions options, RequestUrl uri) {
        settings.signer().flatMap(signer -> signer.sign(Authority.of(uri.scheme(), uri.host(), uri.port()),
                clock.instant())).ifPresent(headers -> headers.asMap().forEach(options::addHeader));
    }

    /**
     * One request in flight: held until its send window, sent, read, and waited for. The caller's thread waits in
     * {@link #run}; everything else happens on the connection's event-loop thread, which writes the bytes (and sets
     * the hold's timer). Times are {@link System#nanoTime} readings, -1 until they happen; the ones both threads read
     * are volatile.
     */
    /** The fetcher's limits, with the request's own body cap when it names one (a sitemap's 50 MB). */
    private BodyLimits limitsFor(FetchRequest request) {
        return request.maxBodyBytes().isPresent() ? limits.withMaxBytes(request.maxBodyBytes().getAsInt()) : limits;
    }

    private final class Exchange {
        private final FetchRequest request;
        private final InetAddress address;
        /** When the call started: the timeouts count from here. */
        private final long start;
        private final CompletableFuture<FetchResult> done = new CompletableFuture<>();
        /** Where the durations count from: the call, or the end of the hold for a request held until its window. */
        private volatile long origin;
        private volatile long connectedAt = -1;
        private volatile long firstByteAt = -1;
        /**
         * When the site last sent anything (headers or body): a body that stalls fails on the idle timeout too, not
         * only on the total one, so a page that sends its headers and then nothing holds a fetcher 10 s, not 30.
         */
        private volatile long lastByteAt;
        /** The request once written: what a timeout resets. */
        private volatile HttpClientRequest sent;
        /** Whether the request waited for its window (event loop only). */
        private boolean held;

        Exchange(FetchRequest request, InetAddress address, long start) {
            this.request = request;
            this.address = address;
            this.start = start;
            this.origin = start;
            this.lastByteAt = start;
        }

        FetchResult run(RequestOptions options) {
            client.request(options).onFailure(done::completeExceptionally).onSuccess(this::write);
            return await();
        }

        /** Writes the request in its window: holds it when early, drops it when late. */
        private void write(HttpClientRequest req) {
            if (done.isDone()) {
                // Timed out while held: the caller has moved on, and the request must not go out after all.
                abandon(req);
                return;
            }
            long hold = holdMillis(request);
            if (hold > 0) {
                // Early: hold it here, on the thread that writes it, and look at the time again when the timer
                // fires (a timer may fire early by the clock it is read against, never by nanoTime).
                held = true;
                vertx.setTimer(hold, id -> write(req));
                return;
            }
            // The last moment before the bytes go out: a request past its window is not sent at all, so that it
            // cannot reach the site too close to the next slot's request.
            if (missed(request)) {
                abandon(req);
                done.complete(late(request, start));
                return;
            }
            send(req);
        }

        private void send(HttpClientRequest req) {
            connectedAt = System.nanoTime();
            if (held) {
                // The wait for the window is no part of the exchange: the site's response time counts from here.
                origin = connectedAt;
            }
            lastByteAt = connectedAt;
            sent = req;
            Optional<RequestTap> tap = request.capture() ? RequestTap.install(req.connection()) : Optional.empty();
            req.send().onFailure(e -> {
                tap.ifPresent(RequestTap::remove);
                done.completeExceptionally(e);
            }).onSuccess(response -> {
                lastByteAt = System.nanoTime();
                // The request has been written whole once its response starts: what the tap copied is all of it.
                Optional<Capturing> capturing = tap.flatMap(RequestTap::remove)
                        .map(head -> new Capturing(head, address.getHostAddress()));
                new Reading(req, response, capturing).start();
            });
        }

        /**
         * Waits for the answer, giving up when the site has been silent for the idle timeout or the total timeout
         * has passed: either resets the request.
         */
        private FetchResult await() {
            long idle = settings.firstByteTimeout().toNanos();
            long deadline = start + settings.totalTimeout().toNanos();
            try {
                while (true) {
                    long now = System.nanoTime();
                    long quietFor = now - lastByteAt;
                    if (quietFor >= idle) {
                        giveUp();
                        return new FetchResult.Failure(FailureKind.TIMEOUT, "no data for "
                                + settings.firstByteTimeout(), elapsed(start));
                    }
                    long wait = Math.min(deadline - now, idle - quietFor);
                    if (wait <= 0) {
                        throw new TimeoutException();
                    }
                    try {
                        return done.get(wait, TimeUnit.NANOSECONDS);
                    } catch (TimeoutException quiet) {
                        if (System.nanoTime() >= deadline) {
                            throw quiet;
                        }
                    }
                }
            } catch (ExecutionException e) {
                return failure(e.getCause(), start);
            } catch (TimeoutException e) {
                giveUp(); // a site still dripping bytes must not keep the connection, nor a pool slot, busy
                return totalTimeout(start);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return failure(e, start);
            }
        }

        private void giveUp() {
            done.cancel(true);
            HttpClientRequest req = sent;
            if (req != null) {
                req.reset();
            }
        }

        /**
         * The response being read, on the event loop: its kept headers, and its body streamed through the decoder
         * (when content-encoded) into a bounded buffer.
         */
        private final class Reading {
            private final HttpClientRequest req;
            private final HttpClientResponse response;
            private final Optional<Capturing> capturing;
            private final Map<String, String> headers;
            private final String encoding;
            private final GzipDeflateDecoder decoder;
            private final BodyLimits bodyLimits = limitsFor(request);
            private final BoundedBody body = BoundedBody.create(bodyLimits);

            Reading(HttpClientRequest req, HttpClientResponse response, Optional<Capturing> capturing) {
                this.req = req;
                this.response = response;
                this.capturing = capturing;
                this.headers = kept(response);
                this.encoding = headers.getOrDefault("content-encoding", "").trim().toLowerCase(Locale.ROOT);
                this.decoder = switch (encoding) {
                    case "gzip", "x-gzip" -> GzipDeflateDecoder.gzip();
                    case "deflate" -> GzipDeflateDecoder.deflate();
                    default -> null;
                };
            }

            void start() {
                response.handler(this::chunk);
                response.exceptionHandler(e -> {
                    if (!done.isDone()) {
                        done.completeExceptionally(e);
                    }
                });
                response.endHandler(v -> {
                    if (!done.isDone()) {
                        finish();
                    }
                });
            }

            private void chunk(Buffer chunk) {
                lastByteAt = System.nanoTime();
                if (firstByteAt < 0) {
                    firstByteAt = lastByteAt;
                }
                if (done.isDone() || !body.accepting()) {
                    return;
                }
                if (decoder != null) {
                    capturing.ifPresent(c -> c.transferred(chunk.getBytes(), bodyLimits.maxRawBytes()));
                }
                boolean more;
                try {
                    more = decoder == null ? body.accept(chunk.getBytes(), chunk.length())
                            : decoder.decodeInto(ByteBuffer.wrap(chunk.getBytes()), body);
                } catch (ZipException e) {
                    decoder.close();
                    done.complete(new FetchResult.Failure(FailureKind.IO, "bad " + encoding + " body: "
                            + e.getMessage(), elapsed(origin)));
                    req.reset();
                    return;
                }
                if (!more) {
                    // Cut at the cap (or stopped by the ratio guard): stop reading, close the connection.
                    finish();
                    req.reset();
                }
            }

            private void finish() {
                if (decoder != null) {
                    decoder.close();
                }
                if (body.ratioExceeded()) {
                    done.complete(new FetchResult.Failure(FailureKind.BLOCKED, "decompression ratio above "
                            + bodyLimits.maxDecompressionRatio() + " (a compression bomb?)", elapsed(origin)));
                    return;
                }
                Duration total = elapsed(origin);
                Duration ttfb = firstByteAt < 0 ? total : Duration.ofNanos(firstByteAt - origin);
                Duration connect = connectedAt < 0 ? Duration.ZERO : Duration.ofNanos(connectedAt - origin);
                FetchResult.Response result = FetchResult.Response.builder().status(response.statusCode())
                        .headers(headers).body(body.toByteArray()).truncated(body.truncated()).finalUrl(request.url())
                        .timeToFirstByte(ttfb).total(total).redirects(List.of()).connect(connect).build();
                done.complete(capturing.flatMap(c -> c.exchange(response, body, decoder != null))
                        .map(result::withExchange).orElse(result));
            }
        }
    }

    /** Drops a request that must not go out: the reset is ours, so nothing is reported. */
    private static void abandon(HttpClientRequest req) {
        req.exceptionHandler(abandoned -> { });
        req.reset();
    }

    /**
     * The response's headers that the caller is given ({@link #HEADERS}), the first value of each: a second
     * Content-Type or Content-Length is an error, not part of a list. X-Robots-Tag is the exception, since sites send
     * one line per directive or per crawler: its lines are joined, in an order that reads as they did.
     */
    private static Map<String, String> kept(HttpClientResponse response) {
        Map<String, String> headers = new HashMap<>();
        for (String name : HEADERS) {
            String value = name.equals(PageDirectivesParser.HEADER)
                    ? joined(response.headers().getAll(name)) : response.getHeader(name);
            if (value != null) {
                headers.put(name, value);
            }
        }
        return headers;
    }

    private static String joined(List<String> values) {
        return values.isEmpty() ? null : PageDirectivesParser.joinHeaderValues(values);
    }

    private FetchResult totalTimeout(long start) {
        return new FetchResult.Failure(FailureKind.TIMEOUT, "total timeout of " + settings.totalTimeout()
                + " reached", elapsed(start));
    }

    /**
     * A capture in progress: the request head as written, the address, and the payload as transferred when it differs
     * from the decoded body (content-encoded), bounded like the body's wire bytes.
     */
    private static final class Capturing {
        final byte[] requestHead;
        final String remoteIp;
        final ByteArrayOutputStream raw = new ByteArrayOutputStream();
        boolean rawTruncated;

        Capturing(byte[] requestHead, String remoteIp) {
            this.requestHead = requestHead;
            this.remoteIp = remoteIp;
        }

        void transferred(byte[] chunk, long max) {
            int room = (int) Math.max(0, Math.min(chunk.length, max - raw.size()));
            raw.write(chunk, 0, room);
            rawTruncated |= room < chunk.length;
        }

        /** The exchange; empty when what was seen cannot be stored as one (it never should happen). */
        Optional<WireExchange> exchange(HttpClientResponse response, BoundedBody body, boolean encoded) {
            List<WireExchange.Header> headers = new ArrayList<>();
            for (Map.Entry<String, String> h : response.headers()) {
                headers.add(new WireExchange.Header(h.getKey(), h.getValue()));
            }
            String version = response.version() == HttpVersion.HTTP_1_0 ? "HTTP/1.0" : "HTTP/1.1";
            String reason = response.statusMessage() == null ? "" : response.statusMessage();
            try {
                return Optional.of(WireExchange.builder().request(requestHead)
                        .statusLine(version + " " + response.statusCode() + " " + reason).responseHeaders(headers)
                        .remoteIp(remoteIp).payload(encoded ? raw.toByteArray() : body.toByteArray())
                        .payloadTruncated(body.truncated() || encoded && rawTruncated).build());
            } catch (IllegalArgumentException notStorable) {
                return Optional.empty();
            }
        }
    }

    /** Whether it is past the end of the request's send window. */
    private boolean missed(FetchRequest request) {
        return request.send().isPresent() && clock.instant().isAfter(request.send().get().by());
    }

    /** How many milliseconds (rounded up) until the request's send window opens; zero or less: it is open. */
    private long holdMillis(FetchRequest request) {
        if (request.send().isEmpty()) {
            return 0;
        }
        long nanos = Duration.between(clock.instant(), request.send().get().from()).toNanos();
        return nanos <= 0 ? 0 : (nanos + 999_999) / 1_000_000;
    }

    private static FetchResult late(FetchRequest request, long start) {
        return new FetchResult.Failure(FailureKind.LATE, "not sent: past the end of its send window "
                + request.send().orElseThrow().by(), elapsed(start));
    }

    private static Duration elapsed(long start) {
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static FetchResult failure(Throwable cause, long start) {
        FailureKind kind = switch (cause) {
            case UnknownHostException ignored -> FailureKind.DNS;
            case ConnectException ignored -> FailureKind.CONNECT;
            case SSLException ignored -> FailureKind.TLS;
            case TimeoutException ignored -> FailureKind.TIMEOUT;
            case io.netty.handler.timeout.TimeoutException ignored -> FailureKind.TIMEOUT;
            case io.vertx.core.http.StreamResetException ignored -> FailureKind.IO;
            default -> {
                String name = cause.getClass().getSimpleName().toLowerCase(Locale.ROOT);
                String message = String.valueOf(cause.getMessage()).toLowerCase(Locale.ROOT);
                yield name.contains("timeout") || message.contains("timeout") || message.contains("timed out")
                        ? FailureKind.TIMEOUT : name.contains("connect") ? FailureKind.CONNECT : FailureKind.IO;
            }
        };
        return new FetchResult.Failure(kind, String.valueOf(cause.getMessage()), elapsed(start));
    }

    @Override
    public void close() {
        client.close();
    }
}
