package io.spiderling.core.pipeline.extract;

import io.spiderling.core.change.ChangeState;
import io.spiderling.core.change.ContentChange;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.content.Hashing;
import io.spiderling.core.content.MarkdownCopy;
import io.spiderling.core.content.ObjectMetadata;
import io.spiderling.core.extract.CanonicalLink;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.extract.HtmlExtractor;
import io.spiderling.core.extract.PageBudget;
import io.spiderling.core.extract.PageMetadata;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.markdown.MainContent;
import io.spiderling.core.markdown.MarkdownPage;
import io.spiderling.core.notify.UrlChangedEvent;
import io.spiderling.core.pipeline.ChangeNotices;
import io.spiderling.core.port.BlobStore;
import io.spiderling.core.port.EventSink;
import io.spiderling.core.port.LinkStore;
import io.spiderling.core.port.UrlStore;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Clock;
import java.time.Instant;
import java.nio.charset.StandardCharsets;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Extracts metadata from a stored body, records it on the URL's row, moves the record to the page's canonical URL
 * when the page names one, and indexes its outlinks.
 *
 * <p>It runs on the body's object-created event (the event may come before the fetch's metadata row, twice, or after a
 * newer fetch replaced the row's content; the store's write is conditional on the content hash and sorts that out),
 * and inline ({@link #extract}) when the fetch stage found the bytes already stored under their content key, since
 * no event comes then: the composition root hands the fetch stage a listener that calls it, so neither stage knows
 * the other. It reads the object as it is now, so it never works from a stale copy.
 *
 * <p>Canonical records: when the page's {@code <link rel=canonical>} counts ({@link CanonicalLink}), the URL's row
 * becomes an alias pointing to the canonical URL, and the extraction is also written to the canonical URL's row,
 * marked with its source, unless that row holds newer content of its own. Reads then follow one hop.
 *
 * <p>Markdown: when a batch the fetch served asked for it ({@code "markdown": true}, flagged on the body by the fetch
 * stage, {@link ObjectMetadata#MARKDOWN}), the Markdown of the page's main content ({@link MainContent}) is stored
 * under its own hash ({@link BucketKeys#markdown}) before the extraction's write, which names it on the row: a row
 * never names an object that is not there. {@link #ensureMarkdown} does the same for a copy that was stored
 * without it.
 *
 * <p>Links: the row keeps the outlinks as indexed in the links table ({@code linked}), written after the table, so a
 * crash between the two leaves the next attempt diffing against what the table really holds.
 */
public final class ExtractContent {

    /** @param indexLinks whether outlinks go to the links table (the inlinks feature can be switched off) */
    public record Settings(boolean indexLinks) {
        public static final Settings DEFAULTS = new Settings(true);
    }

    private final BlobStore blobs;
    private final UrlStore urls;
    private final LinkStore links;
    private final HtmlExtractor extractor;
    private final CanonicalLink canonical;
    private final Clock clock;
    private final Settings settings;
    private final EventSink events;
    private final Optional<ChangeNotices> notices;
    private final MainContent mainContent;

    private ExtractContent(Builder b) {
        this.blobs = Objects.requireNonNull(b.blobs, "blobs");
        this.urls = Objects.requireNonNull(b.urls, "urls");
        this.links = Objects.requireNonNull(b.links, "links");
        this.extractor = Objects.requireNonNull(b.extractor, "extractor");
        this.canonical = Objects.requireNonNull(b.canonical, "canonical");
        this.clock = Objects.requireNonNull(b.clock, "clock");
        this.settings = Objects.requireNonNull(b.settings, "settings");
        this.events = Objects.requireNonNull(b.events, "events");
        this.notices = Objects.requireNonNull(b.notices, "notices");
        this.mainContent = b.mainContent == null ? MainContent.create() : b.mainContent;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Names each collaborator; settings default to {@link Settings#DEFAULTS}. */
    public static final class Builder {
        private BlobStore blobs;
        private UrlStore urls;
        private LinkStore links;
        private HtmlExtractor extractor;
        private CanonicalLink canonical;
        private Clock clock;
        private Settings settings = Settings.DEFAULTS;
        private EventSink events = EventSink.NONE;
        private Optional<ChangeNotices> notices = Optional.empty();
        private MainContent mainContent;

        private Builder() {}

        /** What renders the Markdown of a page's main content; {@link MainContent#create()} by default. */
        public Builder mainContent(MainContent value) {
            mainContent = value;
            return this;
        }

        /** Who tells the batches that asked for changes ({@code "notify"}) of a change; by default nobody. */
        public Builder notices(ChangeNotices value) {
            notices = Optional.of(value);
            return this;
        }

        /** Where {@code url.changed} goes; by default nowhere. */
        public Builder events(EventSink value) {
            events = value;
            return this;
        }

        public Builder blobs(BlobStore value) {
            blobs = value;
            return this;
        }

        public Builder urls(UrlStore value) {
            urls = value;
            return this;
        }

        public Builder links(LinkStore value) {
            links = value;
            return this;
        }

        public Builder extractor(HtmlExtractor value) {
            extractor = value;
            return this;
        }

        public Builder canonical(CanonicalLink value) {
            canonical = value;
            return this;
        }

        public Builder clock(Clock value) {
            clock = value;
            return this;
        }

        public Builder settings(Settings value) {
            settings = value;
            return this;
        }

        public ExtractContent build() {
            return new ExtractContent(this);
        }
    }

    /**
     * @param written false when a newer extraction or other newer content was already stored
     * @param canonicalWritten whether the canonical URL's row took the record (false when there is none)
     * @param change how the content compares with the URL's content before it; empty when not written
     * @param markdown the Markdown stored and recorded, when it was asked for and the page has main content
     */
    public record Outcome(ExtractionRecord record, boolean written, boolean canonicalWritten,
            Optional<ContentChange> change, Optional<MarkdownCopy> markdown) {}

    /**
     * Empty when the key is not a content key, or the object is gone or lacks (readable) fetch-stage metadata; none of
     * those would improve on a retry.
     */
    public Optional<Outcome> onContent(String key) {
        Optional<String> keySha = BucketKeys.sha256OfContent(key);
        if (keySha.isEmpty()) {
            return Optional.empty();
        }
        return blobs.get(key).flatMap(blob -> {
            Map<String, String> meta = blob.metadata();
            String url = meta.get(ObjectMetadata.URL);
            String fetchedAt = meta.get(ObjectMetadata.FETCHED_AT);
            String sha = meta.get(ObjectMetadata.CONTENT_SHA256);
            if (url == null || fetchedAt == null || !keySha.get().equals(sha)) {
                return Optional.empty();
            }
            NormalizedUrl page;
            Instant contentFetchedAt;
            try {
                page = NormalizedUrl.parse(url);
                contentFetchedAt = Instant.parse(fetchedAt);
            } catch (IllegalArgumentException | DateTimeParseException e) {
                return Optional.empty(); // not written by the fetch stage: nothing to attribute the content to
            }
            boolean markdown = Boolean.parseBoolean(meta.get(ObjectMetadata.MARKDOWN));
            return Optional.of(extract(page, blob.bytes(), blob.contentType(), sha, contentFetchedAt, markdown));
        });
    }

    /**
     * Extracts and records the metadata of {@code body}, fetched from {@code url} at {@code fetchedAt}, and tells
     * listeners ({@code url.changed}) when it changed since the content before it (ADR 18), and the batches that asked
     * for changes and were recorded on the row by then ({@link ChangeNotices}). The event and the notices go out after
     * the row records the change; if one fails, this call fails, and its retry finds the change recorded and sends
     * them again, under the same id.
     */
    public Outcome extract(NormalizedUrl url, byte[] body, String contentType, String sha256, Instant fetchedAt) {
        return extract(url, body, contentType, sha256, fetchedAt, false);
    }

    /**
     * {@link #extract(NormalizedUrl, byte[], String, String, Instant)}, and when {@code markdown} is set and the
     * extraction was written, the Markdown of the page's main content, on its row and its canonical URL's.
     */
    public Outcome extract(NormalizedUrl url, byte[] body, String contentType, String sha256, Instant fetchedAt,
            boolean markdown) {
        HtmlExtractor.Analysis analysis = extractor.analyze(body, contentType, url.value());
        PageMetadata page = PageBudget.fit(analysis.page());
        // Content that is not HTML changes when its bytes do.
        String changeDigest = analysis.changeDigest().orElse(sha256);
        Optional<NormalizedUrl> canonicalUrl = canonical.decide(url, page.canonicalHref());
        Instant now = clock.instant();
        // Only the links index needs what the row held; without it an extraction is one conditional write.
        List<String> linkedBefore = !settings.indexLinks() ? List.of()
                : urls.find(url.urlHash()).map(UrlStore.UrlRecord::linked).orElse(List.of());
        // Stored before the row names it, and named in the extraction's own write.
        Optional<MarkdownCopy> rendered = markdown ? storeMarkdown(url, new Source(body, contentType, sha256))
                : Optional.empty();
        ExtractionRecord record = ExtractionRecord.builder().urlHash(url.urlHash()).url(url.value()).page(page)
                .contentSha256(sha256).contentFetchedAt(fetchedAt).extractedAt(now)
                .canonicalUrl(canonicalUrl.map(NormalizedUrl::value)).source(Optional.empty())
                .changeDigest(Optional.of(changeDigest)).build();
        Optional<ContentChange> change = urls.recordExtraction(record, rendered);
        boolean written = change.isPresent();
        if (written && settings.indexLinks() && !linkedBefore.equals(page.outlinks())) {
            links.replaceOutlinks(url.urlHash(), url.value(), linkedBefore, page.outlinks(), now);
            urls.recordLinked(url.urlHash(), page.outlinks(), fetchedAt);
        }
        boolean canonicalWritten = written && canonicalUrl.map(c -> urls.recordExtraction(ExtractionRecord.builder()
                .urlHash(c.urlHash()).url(c.value()).page(page).contentSha256(sha256).contentFetchedAt(fetchedAt)
                .extractedAt(now).canonicalUrl(Optional.empty()).source(Optional.of(url.value()))
                .changeDigest(Optional.of(changeDigest)).build(), rendered).isPresent())
                .orElse(false);
        change.filter(c -> c.state() == ChangeState.CHANGED).ifPresent(c -> {
            UrlChangedEvent event = new UrlChangedEvent(url, sha256, fetchedAt, c);
            events.publish(UrlChangedEvent.TYPE, event.id(), event.toJson());
            notices.ifPresent(n -> n.changed(event));
        });
        return new Outcome(record, written, canonicalWritten, change, rendered.filter(m -> written));
    }

    /**
     * Makes sure the URL's row has the Markdown of the content {@code fetch} names, for a batch that asked for it and
     * was answered by a copy stored without it: a fresh copy, a 304, or a fetch that served another batch first. Does
     * nothing when the row has it already, when the fetch has no stored body, or when the body is gone. A row whose
     * extraction of that body has not been written yet is extracted here, with the Markdown.
     *
     * @return the Markdown of that content, when the page has main content
     */
    public Optional<MarkdownCopy> ensureMarkdown(FetchRecord fetch) {
        if (fetch.contentKey().isEmpty() || fetch.contentSha256().isEmpty() || fetch.contentType().isEmpty()) {
            return Optional.empty();
        }
        String sha256 = fetch.contentSha256().get();
        Optional<UrlStore.UrlRecord> row = urls.find(fetch.urlHash());
        Optional<MarkdownCopy> had = row.flatMap(r -> r.markdownOf(sha256));
        if (had.isPresent()) {
            return had;
        }
        Optional<ExtractionRecord> extracted = row.flatMap(UrlStore.UrlRecord::extraction)
                .filter(x -> x.contentSha256().equals(sha256));
        NormalizedUrl url = NormalizedUrl.parse(fetch.url());
        return blobs.get(fetch.contentKey().get()).flatMap(blob -> extracted.isPresent()
                ? recordMarkdown(url, new Source(blob.bytes(), fetch.contentType().get(), sha256),
                        extracted.get().canonicalUrl().map(NormalizedUrl::parse))
                : extract(url, blob.bytes(), fetch.contentType().get(), sha256, fetch.fetchedAt(), true).markdown());
    }

    /** A stored body, as Markdown is rendered from it. */
    private record Source(byte[] body, String contentType, String sha256) {}

    /**
     * {@link #storeMarkdown}, then records it on the row of {@code url} and of its canonical URL when the page names
     * one, each only if that row's extraction is of the same body: for a row extracted without it.
     */
    private Optional<MarkdownCopy> recordMarkdown(NormalizedUrl url, Source source, Optional<NormalizedUrl> canonical) {
        Optional<MarkdownCopy> copy = storeMarkdown(url, source);
        copy.ifPresent(m -> {
            urls.recordMarkdown(url.urlHash(), m);
            canonical.ifPresent(c -> urls.recordMarkdown(c.urlHash(), m));
        });
        return copy;
    }

    /**
     * Renders the main content of {@code source} and stores it under its own hash (once: the key is its content).
     * Empty when the page has no main content to render.
     */
    private Optional<MarkdownCopy> storeMarkdown(NormalizedUrl url, Source source) {
        Optional<MarkdownPage> page = mainContent.render(source.body(), source.contentType(), url.value());
        if (page.isEmpty()) {
            return Optional.empty();
        }
        byte[] bytes = page.get().markdown().getBytes(StandardCharsets.UTF_8);
        MarkdownCopy copy = new MarkdownCopy(Hashing.sha256Hex(bytes), bytes.length, source.sha256(),
                page.get().title(), page.get().language());
        Map<String, String> meta = new HashMap<>();
        meta.put(ObjectMetadata.URL, url.value());
        meta.put(ObjectMetadata.CONTENT_SHA256, source.sha256());
        blobs.putIfAbsent(copy.key(), bytes, MARKDOWN_TYPE, meta);
        return Optional.of(copy);
    }

    /** The media type of a stored Markdown rendering (RFC 7763), with its charset. */
    public static final String MARKDOWN_TYPE = "text/markdown; charset=utf-8";
}
