package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.aws.DynamoDbBatchOriginStore;
import io.spiderling.aws.DynamoDbBatchStore;
import io.spiderling.aws.DynamoDbFrontierStore;
import io.spiderling.aws.DynamoDbRateStore;
import io.spiderling.aws.DynamoDbRobotsStore;
import io.spiderling.aws.DynamoDbUrlStore;
import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.batch.Rejection;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.extract.PageDirectives;
import io.spiderling.core.extract.PageMetadata;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.frontier.FrontierEntry;
import io.spiderling.core.politeness.RateLimiter;
import io.spiderling.core.politeness.SiteRate;
import io.spiderling.core.robots.AccessResult;
import io.spiderling.core.robots.RobotsCacheEntry;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import io.spiderling.testkit.SampleClients;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(HandlerProfiles.Api.class)
@QuarkusTestResource(TestStack.class)
class ApiHandlerTest {

    private final DynamoDbBatchStore batches =
            new DynamoDbBatchStore(TestStack.aws().dynamoDb(), TestStack.resources().batchesTable());
    private final DynamoDbBatchOriginStore origins =
            new DynamoDbBatchOriginStore(TestStack.aws().dynamoDb(), TestStack.resources().batchesTable());
    private final DynamoDbUrlStore urls =
            new DynamoDbUrlStore(TestStack.aws().dynamoDb(), TestStack.resources().urlsTable());

    @Test
    void handleRequest_whenSampleBatchHalfDone_expectCountsByStateAndNotDone() throws Exception {
        ObjectNode event = Events.load("api-get-batch.json");
        String batchId = event.at("/pathParameters/id").asText();
        var one = NormalizedUrl.parse("https://example.com/one");
        var two = NormalizedUrl.parse("https://example.com/two");
        batches.createBatch(mine(BatchHeader.builder().batchId(batchId).total(2).duplicates(1)
                .rejected(List.of(new Rejection("ftp://x/", "unsupported scheme: ftp"))).rejectedCount(1)
                .source(BatchSource.HTTP).createdAt(Instant.parse("2026-11-22T05:30:00Z")).build()));
        batches.addItems(batchId, List.of(one, two), Instant.now());
        batches.finishItem(batchId, one.urlHash(), Reason.FETCHED, null, Instant.now());

        JsonNode body = ok(event);

        assertEquals(batchId, body.get("batchId").asText());
        assertEquals(2, body.get("total").asInt());
        assertFalse(body.get("done").asBoolean());
        assertEquals(1, body.at("/counts/queued").asInt());
        assertEquals(1, body.at("/counts/fetched").asInt());
        assertEquals(0, body.at("/counts/failed").asInt());
        assertEquals("unsupported scheme: ftp", body.at("/rejected/0/reason").asText());
        assertEquals(0, body.get("waiting").size(), "nothing parked: nothing to wait on");
    }

    @Test
    void handleRequest_whenSitesRobotsUnreachable_expectTheSiteNamedAsWaitingUntilItsNextTry() throws Exception {
        ObjectNode event = Events.load("api-get-batch.json");
        String batchId = "waits-" + java.util.UUID.randomUUID();
        event.put("rawPath", "/batches/" + batchId);
        ((ObjectNode) event.get("pathParameters")).put("id", batchId);
        Instant now = Instant.now();
        var urls = List.of(NormalizedUrl.parse("http://10.12.0.4:8080/a"), NormalizedUrl.parse("http://10.12.0.4:8080/b"));
        batches.createBatch(mine(BatchHeader.builder().batchId(batchId).total(2)
                .source(BatchSource.HTTP).createdAt(now).build()));
        batches.addItems(batchId, urls, now);
        origins.addOrigins(batchId, List.of(RobotsOrigin.of(urls.get(0))));
        new DynamoDbFrontierStore(TestStack.aws().dynamoDb(), TestStack.resources().sitesTable()).parkAll(urls.stream()
                .map(u -> new FrontierEntry(batchId, u, 1, now.toEpochMilli(), now)).toList());
        Instant nextTry = now.plusSeconds(90).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        new DynamoDbRobotsStore(TestStack.aws().dynamoDb(), TestStack.resources().sitesTable()).save(
                RobotsCacheEntry.builder().origin(RobotsOrigin.of(urls.get(0))).lastResult(AccessResult.UNREACHABLE)
                        .lastStatus(Optional.of(503)).attemptedAt(now).fetchedAt(Optional.empty())
                        .freshUntil(Optional.empty()).expiresAt(now.plus(java.time.Duration.ofDays(7)))
                        .robotsGzip(new byte[0]).truncated(false).consecutiveFailures(1)
                        .firstFailureAt(Optional.of(now)).nextRetryAt(Optional.of(nextTry))
                        .crawlDelay(Optional.empty()).build());

        JsonNode body = ok(event);

        assertEquals(1, body.get("waiting").size(), body.toString());
        JsonNode waiting = body.at("/waiting/0");
        assertEquals("10.12.0.4", waiting.get("site").asText());
        assertEquals("robots-unreachable", waiting.get("reason").asText());
        assertEquals("robots.txt unreachable (503)", waiting.get("detail").asText());
        assertEquals(nextTry.toString(), waiting.get("until").asText());
        assertEquals(2, waiting.get("urls").asInt());
        assertEquals("http://10.12.0.4:8080", waiting.get("origin").asText());
        assertEquals(0, body.get("waitingMore").asInt());
        assertEquals(2, body.at("/counts/queued").asInt(), "the existing fields stay as they were");
    }

    @Test
    void handleRequest_whenSitePausedBy429_expectTheDetailToNameTheStatusAndRetryAfter() throws Exception {
        ObjectNode event = Events.load("api-get-batch.json");
        String batchId = "paused-" + java.util.UUID.randomUUID();
        event.put("rawPath", "/batches/" + batchId);
        ((ObjectNode) event.get("pathParameters")).put("id", batchId);
        Instant now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS); // as the rate item keeps it
        var site = new SiteKey("10.13." + (int) (Math.random() * 250) + ".4");
        var urls = List.of(NormalizedUrl.parse("http://" + site.value() + ":8080/a"));
        batches.createBatch(mine(BatchHeader.builder().batchId(batchId).total(1)
                .source(BatchSource.HTTP).createdAt(now).build()));
        batches.addItems(batchId, urls, now);
        origins.addOrigins(batchId, List.of(RobotsOrigin.of(urls.get(0))));
        new DynamoDbFrontierStore(TestStack.aws().dynamoDb(), TestStack.resources().sitesTable()).parkAll(urls.stream()
                .map(u -> new FrontierEntry(batchId, u, 1, now.toEpochMilli(), now)).toList());
        SiteRate paused = RateLimiter.create().onThrottled(SiteRate.initial(java.time.Duration.ofSeconds(1)), now,
                429, Optional.of(java.time.Duration.ofSeconds(120)), 0.0);
        new DynamoDbRateStore(TestStack.aws().dynamoDb(), TestStack.resources().sitesTable(), java.time.Clock.systemUTC())
                .save(site, paused, 0);
        JsonNode body = ok(event);

        assertEquals(1, body.get("waiting").size(), body.toString());
        JsonNode waiting = body.at("/waiting/0");
        assertEquals(site.value(), waiting.get("site").asText());
        assertEquals("paused", waiting.get("reason").asText());
        assertEquals("paused by 429 (Retry-After 120 s)", waiting.get("detail").asText());
        assertEquals("throttled", waiting.get("cause").asText());
        assertEquals(429, waiting.get("status").asInt());
        assertEquals(paused.pausedUntil().toString(), waiting.get("until").asText());
    }

    @Test
    void handleRequest_whenSampleUrlFetched_expectItsMetadataUnderAnySpelling() throws Exception {
        ObjectNode event = Events.load("api-get-url.json");
        var url = NormalizedUrl.parse(event.at("/queryStringParameters/url").asText());
        urls.recordFetch(FetchRecord.builder(url.urlHash(), url.value(), ItemState.FETCHED,
                        Instant.parse("2026-11-22T05:31:00Z")).httpStatus(200).contentType("text/html").size(1256)
                .contentKey("content/0f/" + url.urlHash()).contentSha256("ab").finalUrl(url.value())
                .timeToFirstByteMs(12).totalMs(40).build());
        ((ObjectNode) event.get("queryStringParameters")).put("url", "HTTPS://EXAMPLE.com:443/#anything");

        JsonNode body = ok(event);

        assertEquals(url.value(), body.get("url").asText());
        assertEquals("fetched", body.get("state").asText());
        assertEquals(200, body.get("httpStatus").asInt());
        assertEquals("content/0f/" + url.urlHash(), body.get("contentKey").asText(), "the key as recorded");
        assertEquals(40, body.at("/timings/totalMs").asInt());
    }

    @Test
    void handleRequest_whenThePageSpokeInHeaderAndMeta_expectTheirDirectivesInTheMetadata() throws Exception {
        var url = NormalizedUrl.parse("https://example.com/directives");
        Instant at = Instant.parse("2026-11-22T05:31:00Z");
        urls.recordFetch(fetched(url).toBuilder().contentSha256(Optional.of("ab")).headers(java.util.Map.of("content-type", "text/html",
                "x-robots-tag", "noarchive, unavailable_after: Fri, 25 Jun 2027 15:00:00 GMT, googlebot: noindex"))
                .build());
        urls.recordExtraction(ExtractionRecord.builder().urlHash(url.urlHash()).url(url.value())
                .page(PageMetadata.builder().title("Directives").directives(PageDirectives.builder()
                        .directive(PageDirectives.Directive.NOFOLLOW).source(PageDirectives.Source.META)
                        .other("noimageindex").build()).build())
                .contentSha256("ab").contentFetchedAt(at).extractedAt(at.plusSeconds(1)).build());
        ObjectNode event = Events.load("api-get-url.json");
        ((ObjectNode) event.get("queryStringParameters")).put("url", url.value());

        JsonNode body = ok(event);

        assertEquals(Events.JSON.readTree("""
                {"noindex":false,"nofollow":true,"noarchive":true,"nosnippet":false,
                 "unavailableAfter":"2027-06-25T15:00:00Z","unavailableAfterText":"Fri, 25 Jun 2027 15:00:00 GMT",
                 "others":["noimageindex"],"sources":["header","meta"]}"""), body.at("/metadata/directives"));
    }

    @Test
    void handleRequest_whenThePageSaidNothingToUs_expectNoDirectives() throws Exception {
        var url = NormalizedUrl.parse("https://example.com/silent");
        Instant at = Instant.parse("2026-11-22T05:31:00Z");
        urls.recordFetch(fetched(url).toBuilder().contentSha256(Optional.of("ab")).headers(java.util.Map.of("x-robots-tag", "googlebot: noarchive"))
                .build());
        urls.recordExtraction(ExtractionRecord.builder().urlHash(url.urlHash()).url(url.value())
                .page(PageMetadata.builder().title("Silent").build()).contentSha256("ab").contentFetchedAt(at)
                .extractedAt(at.plusSeconds(1)).build());
        ObjectNode event = Events.load("api-get-url.json");
        ((ObjectNode) event.get("queryStringParameters")).put("url", url.value());

        JsonNode body = ok(event);

        assertEquals("Silent", body.at("/metadata/title").asText());
        assertTrue(body.at("/metadata/directives").isMissingNode(), body.toString());
    }

    @Test
    void handleRequest_whenUnknownBatchOrUrlOrNoParameter_expectJsonErrors() throws Exception {
        ObjectNode batch = Events.load("api-get-batch.json");
        batch.put("rawPath", "/batches/does-not-exist");
        assertEquals(404, call(batch).get("statusCode").asInt());

        ObjectNode url = Events.load("api-get-url.json");
        ((ObjectNode) url.get("queryStringParameters")).put("url", "https://example.com/never-fetched");
        JsonNode notFound = call(url);
        assertEquals(404, notFound.get("statusCode").asInt());
        assertEquals("not fetched yet", Events.JSON.readTree(notFound.get("body").asText()).get("error").asText());

        url.remove("queryStringParameters");
        assertEquals(400, call(url).get("statusCode").asInt());
    }

    @Test
    void handleRequest_whenListingSampleBatchUrls_expectPagesFilteredByStateWithCursor() throws Exception {
        String batchId = "api-list";
        List<NormalizedUrl> items = java.util.stream.IntStream.range(0, 5)
                .mapToObj(i -> NormalizedUrl.parse("https://example.com/list/" + i)).toList();
        batches.createBatch(mine(BatchHeader.builder().batchId(batchId).total(items.size())
                .source(BatchSource.HTTP).createdAt(Instant.now()).build()));
        batches.addItems(batchId, items, Instant.now());
        batches.finishItem(batchId, items.get(0).urlHash(), Reason.HTTP_ERROR, "http 500", Instant.now());
        batches.finishItem(batchId, items.get(1).urlHash(), Reason.HTTP_ERROR, "http 404", Instant.now());
        ObjectNode event = Events.load("api-get-batch-urls.json");
        event.put("rawPath", "/batches/" + batchId + "/urls");

        JsonNode failed = ok(event);
        ((ObjectNode) event.get("queryStringParameters")).remove("state");
        ((ObjectNode) event.get("queryStringParameters")).put("limit", "3");
        JsonNode firstPage = ok(event);
        java.util.Set<String> seen = new java.util.HashSet<>();
        JsonNode page = firstPage;
        while (true) {
            page.get("items").forEach(i -> assertTrue(seen.add(i.get("url").asText()), "listed twice: " + i));
            if (page.get("cursor").isNull()) {
                break;
            }
            ((ObjectNode) event.get("queryStringParameters")).put("cursor", page.get("cursor").asText());
            page = ok(event);
        }

        assertEquals(2, failed.get("items").size());
        assertTrue(failed.findValuesAsText("state").stream().allMatch("failed"::equals));
        assertEquals(java.util.Set.of("http 500", "http 404"), java.util.Set.copyOf(failed.findValuesAsText("detail")));
        assertEquals(List.of("http-error", "http-error"), failed.findValuesAsText("reason"));
        assertTrue(firstPage.get("items").size() <= 3);
        assertEquals(items.stream().map(NormalizedUrl::value).collect(java.util.stream.Collectors.toSet()), seen);
    }

    @Test
    void handleRequest_whenListingWithBadParameters_expect400Or404() throws Exception {
        ObjectNode event = Events.load("api-get-batch-urls.json");
        String batchId = "api-list-bad";
        event.put("rawPath", "/batches/" + batchId + "/urls");
        batches.createBatch(mine(BatchHeader.builder().batchId(batchId).total(0)
                .source(BatchSource.HTTP).createdAt(Instant.now()).build()));
        ObjectNode query = (ObjectNode) event.get("queryStringParameters");

        query.put("state", "sleeping");
        assertEquals("unknown item state: sleeping", error(event, 400));
        query.put("state", "failed").put("cursor", "garbage");
        assertEquals("invalid cursor: garbage", error(event, 400));
        query.remove("cursor");
        query.put("limit", "0");
        assertEquals("limit must be between 1 and 1000, was 0", error(event, 400));
        event.put("rawPath", "/batches/nope/urls");
        query.put("limit", "10");
        assertEquals("no batch nope", error(event, 404));
    }

    @Test
    void handleRequest_whenDeletingSampleBatch_expectCancelledOnceAnd409WhenComplete() throws Exception {
        ObjectNode event = Events.load("api-delete-batch.json");
        String open = "api-cancel-open";
        String complete = "api-cancel-complete";
        var url = NormalizedUrl.parse("https://example.com/cancel");
        batches.createBatch(mine(BatchHeader.builder().batchId(open).total(1)
                .source(BatchSource.HTTP).createdAt(Instant.now()).build()));
        batches.addItems(open, List.of(url), Instant.now());
        batches.createBatch(mine(BatchHeader.builder().batchId(complete).total(1)
                .source(BatchSource.HTTP).createdAt(Instant.now()).build()));
        batches.addItems(complete, List.of(url), Instant.now());
        batches.finishItem(complete, url.urlHash(), Reason.FETCHED, null, Instant.now());

        event.put("rawPath", "/batches/" + open);
        JsonNode first = call(event);
        JsonNode second = call(event);
        event.put("rawPath", "/batches/" + complete);
        JsonNode done = call(event);
        event.put("rawPath", "/batches/unknown-batch");
        JsonNode unknown = call(event);

        assertEquals(202, first.get("statusCode").asInt());
        String cancelledAt = Events.JSON.readTree(first.get("body").asText()).get("cancelledAt").asText();
        assertEquals(cancelledAt, Events.JSON.readTree(second.get("body").asText()).get("cancelledAt").asText());
        assertEquals(409, done.get("statusCode").asInt());
        assertEquals(404, unknown.get("statusCode").asInt());
    }

    @Test
    void handleRequest_whenNoOrWrongCredentials_expect401AndNothingElse() throws Exception {
        ObjectNode event = Events.load("api-get-batch.json");
        ((ObjectNode) event.get("headers")).remove("authorization");
        JsonNode missing = call(event);
        ((ObjectNode) event.get("headers")).put("authorization", "Bearer not-a-token-of-anyone-0000");
        JsonNode wrong = call(event);

        assertEquals(401, missing.get("statusCode").asInt());
        assertEquals(401, wrong.get("statusCode").asInt());
        assertEquals("invalid credentials", Events.JSON.readTree(wrong.get("body").asText()).get("error").asText());
        assertTrue(missing.at("/headers/www-authenticate").asText().startsWith("Bearer"));
    }

    @Test
    void handleRequest_whenClientBAsksForClientAsBatch_expect404AsIfMissing() throws Exception {
        String batchId = "api-private";
        batches.createBatch(mine(BatchHeader.builder().batchId(batchId).total(1)
                .source(BatchSource.HTTP).createdAt(Instant.now()).build()));
        batches.addItems(batchId, List.of(NormalizedUrl.parse("https://example.com/private")), Instant.now());
        for (String sample : List.of("api-get-batch.json", "api-get-batch-urls.json", "api-delete-batch.json")) {
            ObjectNode event = Events.load(sample);
            event.put("rawPath", sample.contains("urls") ? "/batches/" + batchId + "/urls" : "/batches/" + batchId);
            ((ObjectNode) event.get("headers")).put("authorization", "Bearer " + SampleClients.TOKEN_B);

            assertEquals("no batch " + batchId, error(event, 404), sample);
        }
        assertTrue(batches.status(batchId).orElseThrow().cancelledAt().isEmpty(), "client B cancelled nothing");
        ObjectNode own = Events.load("api-get-batch.json");
        own.put("rawPath", "/batches/" + batchId);
        assertEquals(batchId, ok(own).get("batchId").asText(), "client A still sees it");
    }

    @Test
    void handleRequest_whenBatchGet_expectEachUrlInOrderFoundMissingOrInvalid() throws Exception {
        var known = NormalizedUrl.parse("https://example.com/");
        urls.recordFetch(FetchRecord.builder(known.urlHash(), known.value(), ItemState.FETCHED,
                        Instant.parse("2026-11-22T05:31:00Z")).httpStatus(200).contentType("text/html").size(10)
                .finalUrl(known.value()).timeToFirstByteMs(1).totalMs(2).build());
        ObjectNode event = Events.load("api-post-urls-batchget.json");

        JsonNode results = ok(event).get("results");

        assertEquals(3, results.size());
        assertEquals(known.value(), results.get(0).get("url").asText());
        assertEquals("fetched", results.get(0).get("state").asText());
        assertEquals(404, results.get(1).get("status").asInt());
        assertEquals("https://example.org/b", results.get(1).get("url").asText());
        assertEquals(400, results.get(2).get("status").asInt());
        event.put("body", "{\"urls\":" + Events.JSON.valueToTree(java.util.Collections.nCopies(101, "https://a.b/"))
                + "}");
        assertEquals("urls must hold 1 to 100 URLs, not 101", error(event, 400));
    }

    @Test
    void handleRequest_whenUrlRedirected_expectTheTargetsRecordWithTheAliasNamed() throws Exception {
        var asked = NormalizedUrl.parse("https://example.com/old-home");
        var target = NormalizedUrl.parse("https://example.com/new-home");
        urls.recordFetch(fetched(target));
        urls.recordRedirect(asked.urlHash(), asked.value(), target.value(), Instant.parse("2026-11-22T05:31:00Z"));
        ObjectNode event = Events.load("api-get-url.json");
        ((ObjectNode) event.get("queryStringParameters")).put("url", asked.value());

        JsonNode body = ok(event);

        assertEquals(target.value(), body.get("url").asText());
        assertEquals(asked.value(), body.get("askedUrl").asText());
        assertEquals("redirect", body.get("aliasReason").asText());
    }

    @Test
    void handleRequest_whenPatchingSampleFields_expectThemMergedShownAndValidated() throws Exception {
        ObjectNode event = Events.load("api-patch-url-fields.json");
        ((ObjectNode) event.get("queryStringParameters")).put("url", "https://example.com/fields");

        JsonNode patched = ok(event);
        ObjectNode get = Events.load("api-get-url.json");
        ((ObjectNode) get.get("queryStringParameters")).put("url", "https://example.com/fields");
        urls.recordFetch(fetched(NormalizedUrl.parse("https://example.com/fields")));
        JsonNode record = ok(get);

        assertEquals(0.87, patched.at("/fields/search.score").asDouble());
        assertEquals("ranking", record.at("/fields/search.team").asText());
        assertTrue(record.at("/fields/obsolete").isMissingNode(), "null removes a field");
        event.put("body", "{\"bad name\":1}");
        assertTrue(error(event, 400).startsWith("invalid field name"));
        event.put("body", "[1]");
        assertTrue(error(event, 400).startsWith("body must be a JSON object"));
    }

    @Test
    void handleRequest_whenContentAsked_expectAPresignedUrlServingTheStoredBytes() throws Exception {
        var url = NormalizedUrl.parse("https://example.com/content");
        byte[] bytes = "<html>the origin's exact bytes \u00e9</html>".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        String sha = io.spiderling.core.content.Hashing.sha256Hex(bytes);
        new io.spiderling.aws.S3BlobStore(TestStack.aws().s3(), TestStack.aws().s3Presigner(),
                TestStack.resources().bucket()).put(BucketKeys.content(sha), bytes,
                "text/html", java.util.Map.of());
        urls.recordFetch(FetchRecord.builder(url.urlHash(), url.value(), ItemState.FETCHED, Instant.now())
                .httpStatus(200).contentType("text/html").size(bytes.length).contentKey(BucketKeys.content(sha))
                .contentSha256(sha).finalUrl(url.value()).timeToFirstByteMs(1).totalMs(2).build());
        ObjectNode event = Events.load("api-get-url-content.json");
        ((ObjectNode) event.get("queryStringParameters")).put("url", url.value());
        JsonNode link = ok(event);
        var response = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(link.get("contentUrl").asText())).build(),
                java.net.http.HttpResponse.BodyHandlers.ofByteArray());

        assertEquals(200, response.statusCode());
        org.junit.jupiter.api.Assertions.assertArrayEquals(bytes, response.body());
        assertEquals(sha, link.get("contentSha256").asText());
    }

    @Test
    void handleRequest_whenMarkdownAsked_expectAPresignedUrlServingItAndItsTitleAndLanguageOnTheRecord()
            throws Exception {
        var url = NormalizedUrl.parse("https://example.com/markdown");
        byte[] markdown = "# Heading\n\nText with a [link](https://example.com/next).\n"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        var copy = new io.spiderling.core.content.MarkdownCopy(io.spiderling.core.content.Hashing.sha256Hex(markdown),
                markdown.length, "ab", Optional.of("Heading"), Optional.of("en"));
        new io.spiderling.aws.S3BlobStore(TestStack.aws().s3(), TestStack.aws().s3Presigner(),
                TestStack.resources().bucket()).put(copy.key(), markdown, "text/markdown; charset=utf-8",
                java.util.Map.of());
        Instant at = Instant.parse("2026-11-22T05:31:00Z");
        urls.recordFetch(fetched(url).toBuilder().contentSha256(Optional.of("ab")).build());
        urls.recordExtraction(ExtractionRecord.builder().urlHash(url.urlHash()).url(url.value())
                .page(PageMetadata.builder().title("Heading").build()).contentSha256("ab").contentFetchedAt(at)
                .extractedAt(at.plusSeconds(1)).build());
        urls.recordMarkdown(url.urlHash(), copy);
        ObjectNode event = Events.load("api-get-url-markdown.json");
        ((ObjectNode) event.get("queryStringParameters")).put("url", url.value());

        JsonNode link = ok(event);
        var response = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(link.get("markdownUrl").asText())).build(),
                java.net.http.HttpResponse.BodyHandlers.ofByteArray());

        assertEquals(200, response.statusCode());
        org.junit.jupiter.api.Assertions.assertArrayEquals(markdown, response.body());
        assertEquals(copy.sha256(), link.get("sha256").asText());
        assertEquals("Heading", link.get("title").asText());
        assertEquals("en", link.get("language").asText());
        ObjectNode record = Events.load("api-get-url.json");
        ((ObjectNode) record.get("queryStringParameters")).put("url", url.value());
        assertEquals(copy.key(), ok(record).at("/markdown/key").asText());
    }

    @Test
    void handleRequest_whenTheUrlHasNoMarkdown_expect404SayingHowToAskForIt() throws Exception {
        var url = NormalizedUrl.parse("https://example.com/no-markdown");
        urls.recordFetch(fetched(url));
        ObjectNode event = Events.load("api-get-url-markdown.json");
        ((ObjectNode) event.get("queryStringParameters")).put("url", url.value());

        JsonNode answer = call(event);

        assertEquals(404, answer.get("statusCode").asInt());
        String error = Events.JSON.readTree(answer.get("body").asText()).get("error").asText();
        assertTrue(error.contains("\"markdown\": true"), error);
    }

    @Test
    void handleRequest_whenInlinksAsked_expectThePagesLinkingToTheUrl() throws Exception {
        var links = new io.spiderling.aws.DynamoDbLinkStore(TestStack.aws().dynamoDb(),
                TestStack.resources().linksTable());
        var source = NormalizedUrl.parse("https://example.org/links-to-home");
        links.replaceOutlinks(source.urlHash(), source.value(), List.of(), List.of("https://example.com/"),
                Instant.now());

        JsonNode body = ok(Events.load("api-get-url-inlinks.json"));

        assertTrue(body.findValuesAsText("url").contains(source.value()), body.toString());
    }

    private static FetchRecord fetched(NormalizedUrl url) {
        return FetchRecord.builder(url.urlHash(), url.value(), ItemState.FETCHED, Instant.now()).httpStatus(200)
                .contentType("text/html").size(10).finalUrl(url.value()).timeToFirstByteMs(1).totalMs(2).build();
    }

    /** The header as client A's, the client of the sample events' token. */
    private static BatchHeader mine(BatchHeader h) {
        return BatchHeader.builder().batchId(h.batchId()).total(h.total()).duplicates(h.duplicates())
                .rejected(h.rejected()).rejectedCount(h.rejectedCount()).source(h.source()).createdAt(h.createdAt())
                .options(h.options()).fingerprint(h.fingerprint()).upload(h.upload()).client(SampleClients.CLIENT_A)
                .build();
    }

    @Test
    void handleRequest_whenKeyDirectoryAskedWithoutCredentialsWhileSigningIsOff_expect404SayingSoNot401()
            throws Exception {
        ObjectNode event = Events.load("api-get-key-directory.json");
        assertFalse(event.path("headers").has("authorization"), "a site asks without credentials");

        assertEquals("request signing is off in this deployment", error(event, 404));
    }

    private static String error(ObjectNode event, int status) throws Exception {
        JsonNode response = call(event);
        assertEquals(status, response.get("statusCode").asInt(), response.toString());
        return Events.JSON.readTree(response.get("body").asText()).get("error").asText();
    }

    private static JsonNode ok(ObjectNode event) throws Exception {
        JsonNode response = call(event);
        assertEquals(200, response.get("statusCode").asInt(), response.toString());
        return Events.JSON.readTree(response.get("body").asText());
    }

    private static JsonNode call(ObjectNode event) throws Exception {
        return Events.JSON.readTree(Events.invoke(event).statusCode(200).extract().asString());
    }
}
