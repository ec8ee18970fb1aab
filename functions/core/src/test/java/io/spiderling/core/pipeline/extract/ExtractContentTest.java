package io.spiderling.core.pipeline.extract;

import io.spiderling.core.pipeline.query.Queries;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.content.MarkdownCopy;
import io.spiderling.core.content.Hashing;
import io.spiderling.core.content.ObjectMetadata;
import io.spiderling.core.extract.CanonicalLink;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.extract.HtmlExtractor;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.notify.UrlChangedEvent;
import io.spiderling.core.pipeline.ChangeNotices;
import io.spiderling.core.port.LinkStore;
import io.spiderling.core.port.NotifyQueue;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.InMemoryBatchStore;
import io.spiderling.core.testing.InMemoryBlobStore;
import io.spiderling.core.testing.InMemoryLinkStore;
import io.spiderling.core.testing.InMemoryUrlStore;
import io.spiderling.core.testing.TestClock;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExtractContentTest {

    private static final Instant T1 = Instant.parse("2025-03-01T10:00:00Z");
    private static final Instant T2 = T1.plus(Duration.ofHours(2));
    private static final NormalizedUrl URL = NormalizedUrl.parse("https://example.com/page");
    private static final NormalizedUrl CANONICAL = NormalizedUrl.parse("https://example.com/the-page");

    private final CallLog log = new CallLog();
    private final InMemoryBlobStore blobs = new InMemoryBlobStore(log);
    private final InMemoryUrlStore urls = new InMemoryUrlStore(log);
    private final InMemoryLinkStore links = new InMemoryLinkStore(log);
    private final TestClock clock = new TestClock(T2.plusSeconds(60));
    private final ExtractContent extract = ExtractContent.builder().blobs(blobs).urls(urls).links(links)
            .extractor(HtmlExtractor.create())
            .canonical(new CanonicalLink(UrlNormalizer.create(), CanonicalLink.Scope.SAME_SITE)).clock(clock)
            .settings(ExtractContent.Settings.DEFAULTS).build();

    private static String page(String title, String... links) {
        StringBuilder html = new StringBuilder("<html><head><title>" + title + "</title>"
                + "<meta name=description content='About " + title + "'></head><body>");
        for (String link : links) {
            html.append("<a href='").append(link).append("'>x</a>");
        }
        return html.append("</body></html>").toString();
    }

    /** Stores a body as the fetch stage does, under its content key, and returns the key. */
    private String store(NormalizedUrl url, String html, Instant fetchedAt) {
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
        String sha = Hashing.sha256Hex(bytes);
        String key = BucketKeys.content(sha);
        blobs.put(key, bytes, "text/html; charset=utf-8", Map.of(
                ObjectMetadata.URL, url.value(),
                ObjectMetadata.URL_HASH, url.urlHash(),
                ObjectMetadata.FETCHED_AT, fetchedAt.toString(),
                ObjectMetadata.CONTENT_SHA256, sha,
                ObjectMetadata.HTTP_STATUS, "200"));
        return key;
    }

    private static FetchRecord fetched(NormalizedUrl url, String html, Instant at) {
        String sha = Hashing.sha256Hex(html.getBytes(StandardCharsets.UTF_8));
        return FetchRecord.builder(url.urlHash(), url.value(), ItemState.FETCHED, at).httpStatus(200)
                .contentType("text/html").size(html.length()).contentKey(BucketKeys.content(sha)).contentSha256(sha)
                .finalUrl(url.value()).timeToFirstByteMs(1).totalMs(2).build();
    }

    private String title(NormalizedUrl url) {
        return urls.find(url.urlHash()).orElseThrow().extraction().orElseThrow().page().title();
    }

    @Test
    void onContent_whenHtml_recordsItsMetadataOnTheUrlsRowAndItsOutlinksInTheLinksTable() {
        String key = store(URL, page("Hello", "/a", "https://other.org/b"), T1);

        ExtractContent.Outcome outcome = extract.onContent(key).orElseThrow();

        assertTrue(outcome.written());
        ExtractionRecord record = urls.find(URL.urlHash()).orElseThrow().extraction().orElseThrow();
        assertEquals("Hello", record.page().title());
        assertEquals(T1, record.contentFetchedAt());
        assertEquals(List.of("https://example.com/a", "https://other.org/b"), record.page().outlinks());
        assertEquals(List.of(URL.value()), inlinksOf("https://other.org/b"));
        assertEquals(record.page().outlinks(), urls.find(URL.urlHash()).orElseThrow().linked());
    }

    @Test
    void onContent_whenEventsArriveReversed_keepsTheNewestExtraction() {
        String older = store(URL, page("Old"), T1);
        String newer = store(URL, page("New"), T2);
        urls.recordFetch(fetched(URL, page("New"), T2));

        assertTrue(extract.onContent(newer).orElseThrow().written());
        assertFalse(extract.onContent(older).orElseThrow().written(), "an older body's late event is refused");

        assertEquals("New", title(URL));
    }

    @Test
    void onContent_whenEventDuplicatedAndBeforeTheRow_writesOnceAndTheRowLaterKeepsIt() {
        String key = store(URL, page("Early"), T1);

        assertTrue(extract.onContent(key).orElseThrow().written());
        assertTrue(extract.onContent(key).orElseThrow().written(), "a duplicate rewrites the same extraction");
        urls.recordFetch(fetched(URL, page("Early"), T1));

        assertEquals("Early", title(URL));
    }

    @Test
    void onContent_whenSameBytesWereConfirmedLaterByA304_stillTakesTheLateExtraction() {
        String key = store(URL, page("Same"), T1);
        urls.recordFetch(fetched(URL, page("Same"), T2)); // a newer fetch (304) of the same bytes

        assertTrue(extract.onContent(key).orElseThrow().written());
        assertEquals("Same", title(URL));
    }

    @Test
    void onContent_whenCanonicalLinkNamesAnotherPageOfTheSite_makesAnAliasAndWritesTheCanonicalRecord() {
        String html = "<html><head><title>Product</title><link rel=canonical href='" + CANONICAL.value()
                + "'></head></html>";
        String key = store(URL, html, T1);

        ExtractContent.Outcome outcome = extract.onContent(key).orElseThrow();

        assertTrue(outcome.canonicalWritten());
        assertEquals(Optional.of(CANONICAL.value()), urls.find(URL.urlHash()).orElseThrow().aliasOf());
        ExtractionRecord copy = urls.find(CANONICAL.urlHash()).orElseThrow().extraction().orElseThrow();
        assertEquals("Product", copy.page().title());
        assertEquals(Optional.of(URL.value()), copy.source());
        InMemoryBatchStore batches = new InMemoryBatchStore(log);
        Queries queries = Queries.builder().normalizer(UrlNormalizer.create()).headers(batches).items(batches)
                .urls(urls).blobs(blobs).build();
        var found = assertInstanceOf(Queries.UrlLookup.Found.class, queries.url(URL.value()));
        assertEquals(CANONICAL.urlHash(), found.record().urlHash(), "the alias resolves to the canonical record");
    }

    @Test
    void onContent_whenCanonicalLinkIsRelativeOrCrossSite_changesNothing() {
        String key = store(URL, "<html><head><title>T</title><link rel=canonical href='/the-page'>"
                + "</head></html>", T1);

        ExtractContent.Outcome outcome = extract.onContent(key).orElseThrow();

        assertFalse(outcome.canonicalWritten());
        assertEquals(Optional.empty(), urls.find(URL.urlHash()).orElseThrow().aliasOf());
        assertEquals("/the-page", urls.find(URL.urlHash()).orElseThrow().extraction().orElseThrow().page()
                .canonicalHref());
    }

    @Test
    void onContent_whenCanonicalUrlHasNewerContentOfItsOwn_leavesItAlone() {
        String own = page("Its own");
        urls.recordFetch(fetched(CANONICAL, own, T2));
        extract.extract(CANONICAL, own.getBytes(StandardCharsets.UTF_8), "text/html",
                Hashing.sha256Hex(own.getBytes(StandardCharsets.UTF_8)), T2);
        String key = store(URL, "<html><head><title>Alias</title><link rel=canonical href='" + CANONICAL.value()
                + "'></head></html>", T1);

        assertFalse(extract.onContent(key).orElseThrow().canonicalWritten());
        assertEquals("Its own", title(CANONICAL));
    }

    @Test
    void onContent_whenReExtracted_keepsApplicationFieldsAndUpdatesTheLinks() {
        String first = store(URL, page("One", "/kept", "/dropped"), T1);
        extract.onContent(first);
        urls.replaceFields(URL.urlHash(), URL.value(), Map.of("team", "\"search\""), 0);
        String second = store(URL, page("Two", "/kept", "/added"), T2);

        extract.onContent(second);

        var row = urls.find(URL.urlHash()).orElseThrow();
        assertEquals("Two", row.extraction().orElseThrow().page().title());
        assertEquals(Map.of("team", "\"search\""), row.fields(), "the extractor never touches application fields");
        assertEquals(List.of(URL.value()), inlinksOf("https://example.com/kept"));
        assertEquals(List.of(), inlinksOf("https://example.com/dropped"));
        assertEquals(List.of(URL.value()), inlinksOf("https://example.com/added"));
    }

    @Test
    void onContent_whenLinksSwitchedOff_writesNoLinks() {
        ExtractContent noLinks = ExtractContent.builder().blobs(blobs).urls(urls).links(links)
                .extractor(HtmlExtractor.create())
                .canonical(new CanonicalLink(UrlNormalizer.create(), CanonicalLink.Scope.SAME_SITE)).clock(clock)
                .settings(new ExtractContent.Settings(false)).build();

        noLinks.onContent(store(URL, page("No links", "/a"), T1));

        assertEquals(List.of(), inlinksOf("https://example.com/a"));
        assertEquals(List.of("https://example.com/a"), urls.find(URL.urlHash()).orElseThrow().extraction()
                .orElseThrow().page().outlinks(), "the row keeps its outlinks");
    }

    @Test
    void extract_whenTheFetchStageFoundTheBytesStored_extractsForThatUrl() {
        NormalizedUrl mirror = NormalizedUrl.parse("https://mirror.example.net/page");
        String html = page("Mirrored");

        extract.extract(mirror, html.getBytes(StandardCharsets.UTF_8), "text/html",
                Hashing.sha256Hex(html.getBytes(StandardCharsets.UTF_8)), T1);

        assertEquals("Mirrored", title(mirror));
    }

    @ParameterizedTest
    @ValueSource(strings = {"manifests/b1.txt", "content/", "content/9f/9f86d081"})
    void onContent_whenKeyIsNotAContentKey_returnsEmptyAndRecordsNothing(String key) {
        blobs.put(key, new byte[] {1}, "text/html", Map.of());

        assertEquals(Optional.empty(), extract.onContent(key));
    }

    @Test
    void onContent_whenObjectIsGone_returnsEmpty() {
        assertEquals(Optional.empty(), extract.onContent(BucketKeys.content("ab".repeat(32))));
    }

    @ParameterizedTest
    @ValueSource(strings = {ObjectMetadata.URL, ObjectMetadata.FETCHED_AT, ObjectMetadata.CONTENT_SHA256})
    void onContent_whenFetchMetadataEntryMissing_returnsEmptyAndRecordsNothing(String missing) {
        String key = store(URL, page("x"), T1);
        Map<String, String> metadata = new HashMap<>(blobs.get(key).orElseThrow().metadata());
        metadata.remove(missing);
        blobs.put(key, blobs.get(key).orElseThrow().bytes(), "text/html", metadata);

        assertEquals(Optional.empty(), extract.onContent(key));
        assertEquals(Optional.empty(), urls.find(URL.urlHash()));
    }

    @Test
    void onContent_whenMetadataHashDisagreesWithTheKey_returnsEmpty() {
        String key = store(URL, page("x"), T1);
        Map<String, String> metadata = new HashMap<>(blobs.get(key).orElseThrow().metadata());
        metadata.put(ObjectMetadata.CONTENT_SHA256, "cd".repeat(32));
        blobs.put(key, blobs.get(key).orElseThrow().bytes(), "text/html", metadata);

        assertEquals(Optional.empty(), extract.onContent(key));
    }

    @Test
    void onContent_whenBodyIsGarbage_recordsEmptyMetadataWithoutThrowing() {
        byte[] garbage = new byte[4096];
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = (byte) (i * 31 + 7);
        }
        String sha = Hashing.sha256Hex(garbage);
        String key = BucketKeys.content(sha);
        blobs.put(key, garbage, "text/html", Map.of(ObjectMetadata.URL, URL.value(), ObjectMetadata.FETCHED_AT,
                T1.toString(), ObjectMetadata.CONTENT_SHA256, sha));

        assertTrue(extract.onContent(key).orElseThrow().written());
    }

    /** The events a listener got: type, id and body. */
    private record Heard(String type, String id, String json) {}

    private ExtractContent publishingTo(List<Heard> heard, java.util.concurrent.atomic.AtomicInteger failures) {
        return ExtractContent.builder().blobs(blobs).urls(urls).links(links).extractor(HtmlExtractor.create())
                .canonical(new CanonicalLink(UrlNormalizer.create(), CanonicalLink.Scope.SAME_SITE)).clock(clock)
                .events((type, id, json) -> {
                    if (failures.getAndDecrement() > 0) {
                        throw new IllegalStateException("events queue unavailable");
                    }
                    heard.add(new Heard(type, id, new String(json, StandardCharsets.UTF_8)));
                }).build();
    }

    private Optional<io.spiderling.core.change.ContentChange> extractAt(ExtractContent stage, String html,
            Instant fetchedAt) {
        byte[] body = html.getBytes(StandardCharsets.UTF_8);
        return stage.extract(URL, body, "text/html", Hashing.sha256Hex(body), fetchedAt).change();
    }

    @Test
    void extract_whenTheTextChanges_sendsOneUrlChangedAndNoneForNewOrUnchangedContent() {
        List<Heard> heard = new java.util.ArrayList<>();
        ExtractContent stage = publishingTo(heard, new java.util.concurrent.atomic.AtomicInteger());
        Instant t3 = T2.plus(Duration.ofHours(1));

        var first = extractAt(stage, "<title>A</title><p>Hello</p>", T1).orElseThrow();
        var second = extractAt(stage, "<title>A</title><p>Hello again</p>", T2).orElseThrow();
        var third = extractAt(stage, "<title>A</title><script nonce=x1>1</script><p>Hello again</p>", t3)
                .orElseThrow();

        assertEquals(io.spiderling.core.change.ChangeState.NEW, first.state());
        assertEquals(io.spiderling.core.change.ChangeState.CHANGED, second.state());
        assertEquals(Optional.of(first.digest()), second.previousDigest());
        assertEquals(Optional.of(T1), second.previousFetchedAt());
        assertEquals(io.spiderling.core.change.ChangeState.UNCHANGED, third.state(), "a nonce is no change");
        assertEquals(1, heard.size(), heard.toString());
        assertEquals("url.changed", heard.getFirst().type());
        assertEquals(URL.urlHash() + ":" + T2.toEpochMilli() + ":changed", heard.getFirst().id());
        assertTrue(heard.getFirst().json().contains("\"previousFetchedAt\":\"" + T1 + "\""), heard.toString());
    }

    @Test
    void extract_whenPublishingTheChangeFails_failsAndItsRetrySendsTheSameEvent() {
        List<Heard> heard = new java.util.ArrayList<>();
        java.util.concurrent.atomic.AtomicInteger failures = new java.util.concurrent.atomic.AtomicInteger();
        ExtractContent stage = publishingTo(heard, failures);
        extractAt(stage, "<title>A</title><p>Hello</p>", T1);
        failures.set(1);

        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> extractAt(stage, "<title>A</title><p>Changed</p>", T2));
        assertEquals(List.of(), heard, "the row recorded the change; the send failed");

        var retried = extractAt(stage, "<title>A</title><p>Changed</p>", T2).orElseThrow();

        assertEquals(io.spiderling.core.change.ChangeState.CHANGED, retried.state(),
                "the retry does not compare the content with itself");
        assertEquals(List.of(URL.urlHash() + ":" + T2.toEpochMilli() + ":changed"),
                heard.stream().map(Heard::id).toList());
    }

    /** A notify queue that records the changes it is sent, after refusing the first {@code failures} sends. */
    private static io.spiderling.core.port.NotifyQueue notifyQueue(List<NotifyQueue.Message> sent,
            java.util.concurrent.atomic.AtomicInteger failures) {
        return (message, delay) -> {
            if (failures.getAndDecrement() > 0) {
                throw new IllegalStateException("notify queue unavailable");
            }
            sent.add(message);
        };
    }

    private ExtractContent noticing(List<NotifyQueue.Message> sent, java.util.concurrent.atomic.AtomicInteger failures) {
        return ExtractContent.builder().blobs(blobs).urls(urls).links(links).extractor(HtmlExtractor.create())
                .canonical(new CanonicalLink(UrlNormalizer.create(), CanonicalLink.Scope.SAME_SITE)).clock(clock)
                .notices(new ChangeNotices(urls, notifyQueue(sent, failures))).build();
    }

    @Test
    void extract_whenTheFetchRecordedBatchesThatAskedForChanges_tellsEachOfThemTheChange() {
        List<NotifyQueue.Message> sent = new java.util.ArrayList<>();
        ExtractContent stage = noticing(sent, new java.util.concurrent.atomic.AtomicInteger());
        extractAt(stage, "<title>A</title><p>Hello</p>", T1);
        String changed = "<title>A</title><p>Changed</p>";
        urls.recordFetch(fetched(URL, changed, T2));
        urls.requestChangeNotices(URL.urlHash(), T2, sha(changed), java.util.Set.of("b1", "b2"));

        var change = extractAt(stage, changed, T2).orElseThrow();

        assertEquals(java.util.Set.of("b1", "b2"), sent.stream().map(NotifyQueue.Message::batchId)
                .collect(java.util.stream.Collectors.toSet()));
        UrlChangedEvent event = new UrlChangedEvent(URL, sha(changed), T2, change);
        assertTrue(sent.stream().allMatch(m -> m.change().equals(Optional.of(event))), sent.toString());
    }

    @Test
    void extract_whenNewOrUnchangedContentOrNoBatchAsked_tellsNoBatch() {
        List<NotifyQueue.Message> sent = new java.util.ArrayList<>();
        ExtractContent stage = noticing(sent, new java.util.concurrent.atomic.AtomicInteger());
        String first = "<title>A</title><p>Hello</p>";
        String nonce = "<title>A</title><script nonce=x1>1</script><p>Hello</p>";
        urls.recordFetch(fetched(URL, first, T1));
        urls.requestChangeNotices(URL.urlHash(), T1, sha(first), java.util.Set.of("b1"));
        extractAt(stage, first, T1);
        urls.recordFetch(fetched(URL, nonce, T2));
        urls.requestChangeNotices(URL.urlHash(), T2, sha(nonce), java.util.Set.of("b1"));
        extractAt(stage, nonce, T2);
        extractAt(stage, "<title>A</title><p>Changed</p>", T2.plusSeconds(60));

        assertEquals(List.of(), sent, "new, unchanged, and changed with no batch asking");
    }

    @Test
    void extract_whenTellingABatchFails_failsAndItsRetryTellsThemAgainUnderTheSameId() {
        List<NotifyQueue.Message> sent = new java.util.ArrayList<>();
        java.util.concurrent.atomic.AtomicInteger failures = new java.util.concurrent.atomic.AtomicInteger();
        ExtractContent stage = noticing(sent, failures);
        extractAt(stage, "<title>A</title><p>Hello</p>", T1);
        String changed = "<title>A</title><p>Changed</p>";
        urls.recordFetch(fetched(URL, changed, T2));
        urls.requestChangeNotices(URL.urlHash(), T2, sha(changed), java.util.Set.of("b1"));
        failures.set(1);

        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> extractAt(stage, changed, T2));
        assertEquals(List.of(), sent);
        extractAt(stage, changed, T2);

        assertEquals(List.of("b1"), sent.stream().map(NotifyQueue.Message::batchId).toList());
        assertEquals(URL.urlHash() + ":" + T2.toEpochMilli() + ":changed",
                sent.getFirst().change().orElseThrow().id());
    }

    private static String sha(String html) {
        return Hashing.sha256Hex(html.getBytes(StandardCharsets.UTF_8));
    }

    private List<String> inlinksOf(String url) {
        LinkStore.InlinkPage page = links.inlinks(NormalizedUrl.parse(url).urlHash(), Optional.empty(), 100);
        return page.inlinks().stream().map(LinkStore.Inlink::sourceUrl).toList();
    }

    /** An article page: navigation, a main article with a link, and a footer. */
    private static String article(String title, String nextHref) {
        return "<html lang='en-GB'><head><title>" + title + "</title></head><body>"
                + "<nav><a href='/'>Home</a> <a href='/shop'>Shop</a></nav><main><article><h1>" + title + "</h1>"
                + ("<p>The river runs past the old station and the library, where the market meets the harbour on"
                + " winter mornings. ").repeat(4) + "Read the <a href='" + nextHref + "'>next part</a>.</p>"
                + "<ul><li>first point of the article</li><li>second point of the article</li></ul>"
                + "</article></main><footer>Footer text: privacy and terms</footer></body></html>";
    }

    /** Stores a body as the fetch stage does for a batch that asked for Markdown. */
    private String storeAskingMarkdown(NormalizedUrl url, String html, Instant fetchedAt) {
        String key = store(url, html, fetchedAt);
        var stored = blobs.get(key).orElseThrow();
        java.util.Map<String, String> meta = new java.util.HashMap<>(stored.metadata());
        meta.put(ObjectMetadata.MARKDOWN, "true");
        blobs.put(key, stored.bytes(), stored.contentType(), meta);
        return key;
    }

    private String markdownText(MarkdownCopy copy) {
        return new String(blobs.get(copy.key()).orElseThrow().bytes(), StandardCharsets.UTF_8);
    }

    @Test
    void onContent_whenTheBodyAsksForMarkdown_storesItUnderItsHashAndRecordsItOnTheRow() {
        String html = article("Harbour notes", "/part-2");
        String key = storeAskingMarkdown(URL, html, T1);

        ExtractContent.Outcome outcome = extract.onContent(key).orElseThrow();

        MarkdownCopy copy = outcome.markdown().orElseThrow();
        String markdown = markdownText(copy);
        assertEquals(Hashing.sha256Hex(markdown.getBytes(StandardCharsets.UTF_8)), copy.sha256());
        assertEquals(BucketKeys.markdown(copy.sha256()), copy.key());
        assertEquals(Hashing.sha256Hex(html.getBytes(StandardCharsets.UTF_8)), copy.contentSha256());
        assertTrue(markdown.contains("[next part](https://example.com/part-2)"), markdown);
        assertTrue(markdown.contains("first point of the article"), markdown);
        assertFalse(markdown.contains("Footer text"), markdown);
        assertEquals(ExtractContent.MARKDOWN_TYPE, blobs.get(copy.key()).orElseThrow().contentType());
        assertEquals(Optional.of(copy), urls.find(URL.urlHash()).orElseThrow().currentMarkdown());
    }

    @Test
    void onContent_whenNoBatchAskedForMarkdown_rendersNone() {
        String key = store(URL, article("Harbour notes", "/part-2"), T1);

        assertEquals(Optional.empty(), extract.onContent(key).orElseThrow().markdown());
        assertEquals(Optional.empty(), urls.find(URL.urlHash()).orElseThrow().markdown());
        assertTrue(log.entries().stream().noneMatch(e -> e.contains(BucketKeys.MARKDOWN)), log.entries().toString());
    }

    @Test
    void onContent_whenTheBodyIsNotHtml_recordsNoMarkdown() {
        byte[] bytes = "%PDF-1.7 not a page".getBytes(StandardCharsets.UTF_8);
        String sha = Hashing.sha256Hex(bytes);
        blobs.put(BucketKeys.content(sha), bytes, "application/pdf", Map.of(ObjectMetadata.URL, URL.value(),
                ObjectMetadata.URL_HASH, URL.urlHash(), ObjectMetadata.FETCHED_AT, T1.toString(),
                ObjectMetadata.CONTENT_SHA256, sha, ObjectMetadata.HTTP_STATUS, "200",
                ObjectMetadata.MARKDOWN, "true"));

        ExtractContent.Outcome outcome = extract.onContent(BucketKeys.content(sha)).orElseThrow();

        assertTrue(outcome.written());
        assertEquals(Optional.empty(), outcome.markdown());
    }

    @Test
    void ensureMarkdown_whenTheCopyWasExtractedWithoutIt_rendersItOnceAndKeepsTheExtraction() {
        String html = article("Harbour notes", "/part-2");
        String key = store(URL, html, T1);
        FetchRecord fetch = fetched(URL, html, T1);
        urls.recordFetch(fetch);
        extract.onContent(key);
        ExtractionRecord before = urls.find(URL.urlHash()).orElseThrow().extraction().orElseThrow();

        MarkdownCopy copy = extract.ensureMarkdown(fetch).orElseThrow();
        log.clear();
        assertEquals(Optional.of(copy), extract.ensureMarkdown(fetch), "the second call finds it on the row");

        assertEquals(List.of(), log.entries(), "rendered once");
        assertEquals(Optional.of(copy), urls.find(URL.urlHash()).orElseThrow().currentMarkdown());
        assertEquals(before, urls.find(URL.urlHash()).orElseThrow().extraction().orElseThrow());
    }

    @Test
    void ensureMarkdown_whenTheExtractionHasNotRunYet_extractsWithMarkdown() {
        String html = article("Harbour notes", "/part-2");
        store(URL, html, T1);
        FetchRecord fetch = fetched(URL, html, T1);
        urls.recordFetch(fetch);

        MarkdownCopy copy = extract.ensureMarkdown(fetch).orElseThrow();

        assertEquals("Harbour notes", title(URL));
        assertEquals(Optional.of(copy), urls.find(URL.urlHash()).orElseThrow().currentMarkdown());
    }

    @Test
    void ensureMarkdown_whenTheFetchStoredNoBody_doesNothing() {
        FetchRecord failed = FetchRecord.builder(URL.urlHash(), URL.value(), ItemState.FAILED, T1).httpStatus(500)
                .build();

        assertEquals(Optional.empty(), extract.ensureMarkdown(failed));
        assertEquals(Optional.empty(), urls.find(URL.urlHash()));
    }

    @Test
    void extract_whenThePageNamesACanonicalUrl_recordsTheMarkdownOnBothRows() {
        String html = article("Harbour notes", "/part-2").replace("<head>",
                "<head><link rel=canonical href='" + CANONICAL.value() + "'>");
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);

        ExtractContent.Outcome outcome = extract.extract(URL, bytes, "text/html", Hashing.sha256Hex(bytes), T1, true);

        MarkdownCopy copy = outcome.markdown().orElseThrow();
        assertEquals(Optional.of(copy), urls.find(URL.urlHash()).orElseThrow().currentMarkdown());
        assertEquals(Optional.of(copy), urls.find(CANONICAL.urlHash()).orElseThrow().currentMarkdown());
    }
}
