package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.RequestUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The fetch queue's message body. Pure: no emulator needed. */
class FetchJobCodecTest {

    @Test
    void decode_whenEncodedJob_returnsEqualJob() {
        FetchJob job = new FetchJob("batch-1", NormalizedUrl.parse("https://example.com:8443/a?b=1&c=%C3%A9"), 3);

        String body = FetchJobCodec.encode(job);

        assertEquals(job, FetchJobCodec.decode(body));
    }

    @Test
    void decode_whenRedirectJob_roundTripsOriginViaAndSend() {
        FetchJob job = new FetchJob("b", new Hop(NormalizedUrl.parse("https://other.example/landing"),
                RequestUrl.parse("https://other.example/landing"),
                java.util.Optional.of(NormalizedUrl.parse("https://example.com/old")), java.util.List.of(
                        "https://example.com/old?b=2&a=1")), 2, 3);

        assertEquals(job, FetchJobCodec.decode(FetchJobCodec.encode(job)));
    }

    @Test
    void decode_whenTheJobReadsASitemap_roundTripsItsDepthAndTheRobotsFilesThatNamedIt() {
        Hop page = new Hop(NormalizedUrl.parse("https://example.com/sitemap-2.xml.gz"),
                RequestUrl.parse("https://example.com/sitemap-2.xml.gz"), java.util.Optional.empty(),
                java.util.List.of(), java.util.Optional.of(new io.spiderling.core.fetch.SitemapTask(1,
                        java.util.List.of("https://example.com/robots.txt"))));
        FetchJob job = new FetchJob("b", page, 1, 2);

        String body = FetchJobCodec.encode(job);

        assertEquals(job, FetchJobCodec.decode(body));
        assertTrue(body.contains("\"sitemap\":{\"depth\":1,\"namedBy\":[\"https://example.com/robots.txt\"]}"), body);
    }

    @Test
    void decode_whenASitemapDatedThePage_roundTripsItsLastmod() {
        FetchJob job = new FetchJob("b", Hop.of(NormalizedUrl.parse("https://example.com/p"))
                .withLastmod(java.time.Instant.parse("2026-11-01T10:00:00Z")), 1, 1);

        String body = FetchJobCodec.encode(job);

        assertEquals(job, FetchJobCodec.decode(body));
        assertTrue(body.contains("\"lastmod\":\"2026-11-01T10:00:00Z\""), body);
    }

    @Test
    void decode_whenTheJobReadsARobotsTxtForItsSitemaps_roundTripsTheMarkWhichOlderJobsLack() {
        Hop robots = new Hop(NormalizedUrl.parse("https://example.com/robots.txt"),
                RequestUrl.parse("https://example.com/robots.txt"), java.util.Optional.empty(), java.util.List.of(),
                java.util.Optional.of(io.spiderling.core.fetch.SitemapTask.robotsTxtOfSite()));
        FetchJob job = new FetchJob("b", robots, 1, 1);

        String body = FetchJobCodec.encode(job);

        assertEquals(job, FetchJobCodec.decode(body));
        assertTrue(body.contains("\"sitemap\":{\"depth\":0,\"namedBy\":[],\"robots\":true}"), body);
        assertEquals(java.util.Optional.of(io.spiderling.core.fetch.SitemapTask.named()), FetchJobCodec.decode(
                "{\"batchId\":\"b\",\"url\":\"https://example.com/s.xml\",\"attempt\":1,\"sitemap\":{\"depth\":0}}")
                .hop().sitemap(), "a job written before the mark reads a sitemap");
    }

    @Test
    void decode_whenJobOfAnEntryInAPartition_roundTripsThePartition() {
        FetchJob job = new FetchJob("b", Hop.of(NormalizedUrl.parse("https://example.com/p")), 1, 2, 7);

        String body = FetchJobCodec.encode(job);

        assertEquals("{\"batchId\":\"b\",\"url\":\"https://example.com/p\",\"attempt\":1,\"send\":2,"
                + "\"partition\":7}", body);
        assertEquals(job, FetchJobCodec.decode(body));
    }

    @Test
    void encode_whenRequestedInAnotherSpelling_writesTheRequestBesideTheKey() {
        NormalizedUrl key = NormalizedUrl.parse("https://example.com/p?a=1&b=2");
        FetchJob job = new FetchJob("b", new Hop(key, RequestUrl.parse("https://example.com/p?b=2&a=1"),
                java.util.Optional.empty(), java.util.List.of()), 1, 1);

        String body = FetchJobCodec.encode(job);

        assertEquals("{\"batchId\":\"b\",\"url\":\"https://example.com/p?a=1&b=2\",\"attempt\":1,\"send\":1,"
                + "\"request\":\"https://example.com/p?b=2&a=1\"}", body);
        assertEquals(job, FetchJobCodec.decode(body));
    }

    @Test
    void encode_whenCalled_writesTheDocumentedFields() {
        FetchJob job = new FetchJob("b\"1", NormalizedUrl.parse("https://example.com/"), 1);

        assertEquals("{\"batchId\":\"b\\\"1\",\"url\":\"https://example.com/\",\"attempt\":1,\"send\":1}",
                FetchJobCodec.encode(job));
    }

    /**
     * Jackson's {@code canConvertToInt()} is true for any number in int range, fractions included, so 1.5 is read as
     * attempt 1: the job then shares the first attempt's deduplication id, and SQS would drop it as a duplicate.
     */
    @Test
    void decode_whenAttemptIsFractional_throwsIllegalArgumentNamingAttempt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FetchJobCodec.decode(
                "{\"batchId\":\"b\",\"url\":\"https://example.com/\",\"attempt\":1.5}"));

        assertTrue(e.getMessage().contains("\"attempt\""), e.getMessage());
    }

    /** Each case: the body, and a fragment the exception message must contain to name what is wrong. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "not json at all                                                 | not JSON",
        "'{\"batchId\":\"b\",'                                           | not JSON",
        "'[]'                                                            | JSON object",
        "'\"just a string\"'                                             | JSON object",
        "'null'                                                          | JSON object",
        "''                                                              | JSON object",
        "'{\"url\":\"https://example.com/\",\"attempt\":1}'              | \"batchId\"",
        "'{\"batchId\":\"\",\"url\":\"https://example.com/\",\"attempt\":1}' | \"batchId\"",
        "'{\"batchId\":7,\"url\":\"https://example.com/\",\"attempt\":1}' | \"batchId\"",
        "'{\"batchId\":\"b\",\"attempt\":1}'                             | \"url\"",
        "'{\"batchId\":\"b\",\"url\":[\"https://example.com/\"],\"attempt\":1}' | \"url\"",
        "'{\"batchId\":\"b\",\"url\":\"https://example.com/\"}'          | \"attempt\"",
        "'{\"batchId\":\"b\",\"url\":\"https://example.com/\",\"attempt\":\"1\"}' | \"attempt\"",
        "'{\"batchId\":\"b\",\"url\":\"https://example.com/\",\"attempt\":true}' | \"attempt\"",
        "'{\"batchId\":\"b\",\"url\":\"https://example.com/\",\"attempt\":null}' | \"attempt\"",
        "'{\"batchId\":\"b\",\"url\":\"https://example.com/\",\"attempt\":4294967296}' | \"attempt\"",
        "'{\"batchId\":\"b\",\"url\":\"https://example.com/\",\"attempt\":0}' | attempt must be >= 1",
        "'{\"batchId\":\"b\",\"url\":\"https://example.com/\",\"attempt\":-1}' | attempt must be >= 1",
        "'{\"batchId\":\"b\",\"url\":\"ftp://example.com/\",\"attempt\":1}' | ftp://example.com/",
        "'{\"batchId\":\"b\",\"url\":\"/relative\",\"attempt\":1}'       | /relative",
        "'{\"batchId\":\"b\",\"url\":\"https://example.com/\",\"attempt\":1,\"partition\":-1}' | \"partition\"",
        "'{\"batchId\":\"b\",\"url\":\"https://example.com/\",\"attempt\":1,\"partition\":\"2\"}' | \"partition\"",
    })
    void decode_whenMalformed_throwsIllegalArgumentNamingTheProblem(String body, String expectedInMessage) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FetchJobCodec.decode(body));

        assertTrue(e.getMessage().contains(expectedInMessage.strip()),
                () -> "message should name the problem (" + expectedInMessage.strip() + "): " + e.getMessage());
    }
}
