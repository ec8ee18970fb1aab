package io.spiderling.lambda.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.spiderling.core.fetch.FailureKind;
import io.spiderling.core.fetch.FetchRequest;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/**
 * SSRF vectors against the real fetcher: address spellings, IPv6 embeddings, metadata services, names that resolve
 * to private addresses (through the fetcher's resolver seam, answering like a hostile DNS server), redirects to
 * either, and a DNS answer that changes between the check and the connect. Sites are on 127.0.0.x, so most cases
 * run with loopback allowed, as tests and local runs do, and check that nothing else is let through with it.
 */
class FetcherSsrfTest {

    private static final Map<String, Deque<String>> DNS = new ConcurrentHashMap<>();
    private static final List<String> ASKED = new CopyOnWriteArrayList<>();
    private static Vertx vertx;
    private static LocalSites sites;
    private static VertxPageFetcher lenient;
    private static VertxPageFetcher strict;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        sites = LocalSites.start(1);
        lenient = new VertxPageFetcher(vertx, settings(true), FetcherSsrfTest::resolve);
        strict = new VertxPageFetcher(vertx, settings(false), FetcherSsrfTest::resolve);
    }

    @AfterAll
    static void stop() {
        lenient.close();
        strict.close();
        sites.close();
        vertx.close();
    }

    /** A DNS server the test scripts: a name gives its answers in turn, then keeps giving the last one. */
    private static List<InetAddress> resolve(String host) {
        ASKED.add(host);
        Deque<String> answers = DNS.get(host);
        String answer = answers == null ? null : answers.size() > 1 ? answers.poll() : answers.peek();
        return answer == null ? List.of() : Arrays.stream(answer.split(" ")).map(FetcherSsrfTest::literal).toList();
    }

    private static void dns(String name, String... answers) {
        DNS.put(name, new ConcurrentLinkedDeque<>(List.of(answers)));
    }

    private static InetAddress literal(String text) {
        try {
            return InetAddress.getByName(text); // a literal: parsed, never looked up
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    private static VertxPageFetcher.Settings settings(boolean allowLoopback) {
        return VertxPageFetcher.Settings.builder().userAgent("spiderling/test (+https://example.org/bot)")
                .connectTimeout(Duration.ofSeconds(2)).firstByteTimeout(Duration.ofSeconds(2))
                .totalTimeout(Duration.ofSeconds(5)).maxBodyBytes(1 << 20).allowLoopback(allowLoopback).build();
    }

    private static LocalSite site() {
        return sites.site(0);
    }

    private static FetchResult.Failure blocked(FetchResult result) {
        FetchResult.Failure failure = assertInstanceOf(FetchResult.Failure.class, result);
        assertEquals(FailureKind.BLOCKED, failure.kind(), failure.message());
        return failure;
    }

    @ParameterizedTest(name = "{0} (loopback allowed: {1})")
    @CsvFileSource(resources = "/fetch/ssrf-vectors.csv", numLinesToSkip = 1)
    void fetch_whenUrlNamesAForbiddenAddress_refusesWithoutResolvingANumber(String url, boolean loopbackAllowed,
            String expectedMessage) {
        ASKED.clear();

        FetchResult result = (loopbackAllowed ? lenient : strict).fetch(FetchRequest.get(url));

        assertEquals(expectedMessage, blocked(result).message());
        assertEquals(List.of(), ASKED, "literals and numbers never reach the resolver");
    }

    @Test
    void fetch_whenNameResolvesToPrivateOrMetadataAddress_refusesIt() {
        dns("intranet.example", "10.1.2.3");
        dns("metadata.example", "169.254.169.254");
        dns("mixed.example", site().host() + " 192.168.0.10");
        dns("mapped.example", "::ffff:172.16.5.4");

        assertEquals("private address 10.1.2.3", blocked(lenient.fetch(FetchRequest.get("http://intranet.example/")))
                .message());
        assertEquals("link-local address 169.254.169.254",
                blocked(lenient.fetch(FetchRequest.get("http://metadata.example/latest/"))).message());
        assertEquals("private address 192.168.0.10", blocked(lenient.fetch(FetchRequest.get(
                "http://mixed.example:" + site().port() + "/"))).message(), "one bad address refuses the host");
        assertEquals("private address 172.16.5.4", blocked(lenient.fetch(FetchRequest.get("http://mapped.example/")))
                .message());
    }

    @Test
    void fetch_whenStrictAndNameResolvesToLoopback_refusesWithoutConnecting() {
        site().page("/named-local", "x");
        dns("local.example", site().host());

        FetchResult result = strict.fetch(FetchRequest.get("http://local.example:" + site().port() + "/named-local"));

        assertEquals("loopback address " + site().host(), blocked(result).message());
        assertEquals(0, site().requestCount("/named-local"));
    }

    @Test
    void fetch_whenRedirectLeadsToANameResolvingPrivate_returnsTheRedirectAndRefusesTheHop() {
        dns("internal.example", "10.9.9.9");
        site().respond("/to-internal", 302, "text/plain", new byte[0],
                Map.of("Location", "http://internal.example/admin"));

        FetchResult.Response redirect = assertInstanceOf(FetchResult.Response.class,
                lenient.fetch(FetchRequest.get(site().url("/to-internal"))));
        FetchResult hop = lenient.fetch(FetchRequest.get(redirect.headers().get("location")));

        assertEquals(302, redirect.status(), "never followed by the fetcher");
        assertEquals("private address 10.9.9.9", blocked(hop).message());
    }

    @Test
    void fetch_whenRedirectLeadsToANumberNamingTheMetadataAddress_refusesTheHop() {
        site().respond("/to-number", 301, "text/plain", new byte[0], Map.of("Location", "http://0xa9fea9fe/latest"));

        FetchResult.Response redirect = assertInstanceOf(FetchResult.Response.class,
                lenient.fetch(FetchRequest.get(site().url("/to-number"))));

        assertEquals("link-local address 169.254.169.254",
                blocked(lenient.fetch(FetchRequest.get(redirect.headers().get("location")))).message());
    }

    /**
     * DNS rebinding: the name answers the site's address once, then a private one. The fetcher asks once and connects
     * to what it checked; had the HTTP client resolved the name again it would have found 10.0.0.1 (or nothing,
     * since the system resolver does not know the name) and the site would have seen no request.
     */
    @Test
    void fetch_whenDnsAnswerChangesAfterTheCheck_connectsToTheCheckedAddressWithTheNameAsHost() {
        site().page("/rebind", "<p>checked</p>");
        dns("rebind.example", site().host(), "10.0.0.1");
        ASKED.clear();

        FetchResult result = lenient.fetch(FetchRequest.get("http://rebind.example:" + site().port() + "/rebind"));

        assertEquals(200, assertInstanceOf(FetchResult.Response.class, result).status(), result.toString());
        assertEquals(List.of("rebind.example"), ASKED, "resolved once");
        assertEquals(java.util.Optional.of("rebind.example:" + site().port()),
                site().requests().getLast().header("host"));
        assertEquals("private address 10.0.0.1",
                blocked(lenient.fetch(FetchRequest.get("http://rebind.example:" + site().port() + "/rebind")))
                        .message(), "the next fetch asks again and sees the new answer");
    }

    @Test
    void fetch_whenNameDoesNotResolve_failsAsDns() {
        FetchResult result = lenient.fetch(FetchRequest.get("http://nowhere.example/"));

        assertEquals(FailureKind.DNS, assertInstanceOf(FetchResult.Failure.class, result).kind());
    }
}
