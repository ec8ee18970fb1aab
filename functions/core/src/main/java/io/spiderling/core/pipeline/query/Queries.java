package io.spiderling.core.pipeline.query;

import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ItemPage;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.change.ContentChange;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.port.BatchHeaderStore;
import io.spiderling.core.port.BatchItemStore;
import io.spiderling.core.port.UrlStore;
import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.content.MarkdownCopy;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.extract.HtmlExtractor;
import io.spiderling.core.extract.PageDirectives;
import io.spiderling.core.extract.PageDirectivesParser;
import io.spiderling.core.port.BlobStore;
import io.spiderling.core.port.LinkStore;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/** The read side: batch progress, URL metadata resolved to canonical records, and links to stored bodies. */
public final class Queries {

    private final UrlNormalizer normalizer;
    private final BatchHeaderStore headers;
    private final BatchItemStore items;
    private final UrlStore urls;
    private final BlobStore blobs;
    private final Optional<LinkStore> links;
    private final String robotsAgent;

    private Queries(Builder b) {
        this.normalizer = Objects.requireNonNull(b.normalizer, "normalizer");
        this.headers = Objects.requireNonNull(b.headers, "headers");
        this.items = Objects.requireNonNull(b.items, "items");
        this.urls = Objects.requireNonNull(b.urls, "urls");
        this.blobs = Objects.requireNonNull(b.blobs, "blobs");
        this.links = Objects.requireNonNull(b.links, "links");
        this.robotsAgent = Objects.requireNonNull(b.robotsAgent, "robotsAgent");
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Names each collaborator; without {@code links}, queries have no inlinks index, and without
     * {@code robotsAgent}, pages' directives are read for {@value HtmlExtractor#DEFAULT_ROBOTS_AGENT}.
     */
    public static final class Builder {
        private UrlNormalizer normalizer;
        private BatchHeaderStore headers;
        private BatchItemStore items;
        private UrlStore urls;
        private BlobStore blobs;
        private Optional<LinkStore> links = Optional.empty();
        private String robotsAgent = HtmlExtractor.DEFAULT_ROBOTS_AGENT;

        private Builder() {}

        public Builder normalizer(UrlNormalizer value) {
            normalizer = value;
            return this;
        }

        public Builder headers(BatchHeaderStore value) {
            headers = value;
            return this;
        }

        public Builder items(BatchItemStore value) {
            items = value;
            return this;
        }

        public Builder urls(UrlStore value) {
            urls = value;
            return this;
        }

        public Builder blobs(BlobStore value) {
            blobs = value;
            return this;
        }

        /** The inlinks index; empty (the default) when the feature is switched off. */
        public Builder links(Optional<LinkStore> value) {
            links = value;
            return this;
        }

        /** The agent whose X-Robots-Tag directives apply: the one the extractor read the meta tags for. */
        public Builder robotsAgent(String value) {
            robotsAgent = value;
            return this;
        }

        public Queries build() {
            return new Queries(this);
        }
    }

    /** The batch, if it exists and belongs to {@code client}: another client's batch is as unknown as a missing one. */
    public Optional<BatchStatus> batch(String batchId, String client) {
        return headers.status(batchId).filter(status -> status.header().ownedBy(client));
    }

    public Optional<BatchStatus> batch(String batchId) {
        return headers.status(batchId);
    }

    /** Largest page {@link #items} returns. */
    public static final int MAX_PAGE = 1000;

    /**
     * A page of the batch's items, optionally in one state; empty for an unknown batch.
     *
     * @throws IllegalArgumentException for a cursor that was not returned by this API, or a limit outside 1..1000
     */
    public Optional<ItemPage> items(String batchId, String client, Optional<ItemState> state, Optional<String> cursor,
            int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_PAGE + ", was " + limit);
        }
        if (batch(batchId, client).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(items.items(batchId, state, cursor, limit));
    }

    public sealed interface UrlLookup {
        /**
         * @param url the URL asked for, normalized
         * @param record the record that answers for it: its own, or the record its alias points to
         * @param alias the URL's own row when an alias was followed to {@code record}
         */
        record Found(NormalizedUrl url, UrlStore.UrlRecord record, Optional<UrlStore.UrlRecord> alias)
                implements UrlLookup {
            public Found(NormalizedUrl url, UrlStore.UrlRecord record) {
                this(url, record, Optional.empty());
            }

            /** The URL whose record answers: the one asked for, or the alias's target. */
            public String resolvedUrl() {
                return alias.flatMap(UrlStore.UrlRecord::aliasOf).orElse(url.value());
            }
        }

        record NotFound(NormalizedUrl url) implements UrlLookup {}

        record Invalid(String reason) implements UrlLookup {}
    }

    /** Most URLs one {@link #urls} call takes. */
    public static final int MAX_BATCH_GET = 100;

    /**
     * Looks a URL up by any of its spellings (it is normalized the way it was when submitted) and resolves its
     * canonical record: a URL that redirected, or whose page named a canonical URL, answers with the target's record.
     * Reads follow one hop only, so a chain of aliases cannot loop or fan out.
     */
    public UrlLookup url(String raw) {
        return urls(List.of(raw)).get(0);
    }

    /**
     * {@link #url} for up to {@value #MAX_BATCH_GET} URLs, answered in order, in two batched reads: the URLs' own rows,
     * then the records their aliases point to.
     *
     * @throws IllegalArgumentException for an empty list or more than {@value #MAX_BATCH_GET} URLs
     */
    public List<UrlLookup> urls(List<String> raws) {
        if (raws.isEmpty() || raws.size() > MAX_BATCH_GET) {
            throw new IllegalArgumentException("between 1 and " + MAX_BATCH_GET + " URLs, not " + raws.size());
        }
        List<NormalizationResult> normalized = raws.stream().map(normalizer::normalize).toList();
        Map<String, UrlStore.UrlRecord> own = urls.findAll(normalized.stream()
                .flatMap(r -> r instanceof NormalizationResult.Accepted a ? Stream.of(a.url().urlHash()) : Stream.empty())
                .toList());
        Map<String, NormalizedUrl> targets = new HashMap<>();
        own.values().forEach(rec -> rec.aliasOf().map(NormalizedUrl::parse)
                .ifPresent(t -> targets.put(t.urlHash(), t)));
        Map<String, UrlStore.UrlRecord> aliased = targets.isEmpty() ? Map.of() : urls.findAll(targets.keySet());
        List<UrlLookup> lookups = new ArrayList<>(raws.size());
        for (NormalizationResult result : normalized) {
            lookups.add(switch (result) {
                case NormalizationResult.Rejected r -> new UrlLookup.Invalid(r.reason());
                case NormalizationResult.Accepted a -> resolve(a.url(), own.get(a.url().urlHash()), aliased);
            });
        }
        return lookups;
    }

    private static UrlLookup resolve(NormalizedUrl url, UrlStore.UrlRecord own,
            Map<String, UrlStore.UrlRecord> aliased) {
        if (own == null) {
            return new UrlLookup.NotFound(url);
        }
        Optional<UrlStore.UrlRecord> target = own.aliasOf()
                .map(t -> aliased.get(NormalizedUrl.parse(t).urlHash()))
                .filter(UrlStore.UrlRecord::known);
        if (target.isPresent()) {
            return new UrlLookup.Found(url, target.get(), Optional.of(own));
        }
        if (!own.known() && own.fields().isEmpty()) {
            return new UrlLookup.NotFound(url); // a claim or an alias to nothing yet: nothing to show
        }
        return new UrlLookup.Found(url, own);
    }

    /**
     * What the page says about its use: the X-Robots-Tag of its latest fetch together with the meta tags of its
     * extracted content (they come from the same response, unless a newer fetch is still being extracted). None when
     * the record holds neither.
     */
    public PageDirectives directives(UrlStore.UrlRecord record) {
        PageDirectives header = record.fetch()
                .map(f -> PageDirectivesParser.fromHeader(f.headers().get(PageDirectivesParser.HEADER), robotsAgent))
                .orElse(PageDirectives.none());
        return header.union(record.extraction().map(x -> x.page().directives()).orElse(PageDirectives.none()));
    }

    /**
     * How the record's latest fetch compares with the content before it (ADR 18): unchanged for a 304, the change
     * its extraction recorded when the extraction is of that fetch's content, and empty while it is not (the
     * extraction is still to run) or when the fetch got no content.
     */
    public static Optional<ContentChange> change(UrlStore.UrlRecord record) {
        Optional<FetchRecord> fetch = record.fetch();
        Optional<ExtractionRecord> extraction = record.extraction().filter(x -> x.source().isEmpty());
        if (fetch.isEmpty() || extraction.isEmpty()) {
            return Optional.empty();
        }
        if (fetch.get().state() == ItemState.NOT_MODIFIED) {
            return extraction.get().changeDigest()
                    .map(digest -> ContentChange.notModified(digest, extraction.get().contentFetchedAt()));
        }
        boolean ofThisFetch = fetch.get().state() == ItemState.FETCHED
                && extraction.get().contentFetchedAt().equals(fetch.get().fetchedAt());
        return ofThisFetch ? record.change() : Optional.empty();
    }

    /** Pages linking to a URL. */
    public sealed interface Inlinks {
        record Page(NormalizedUrl url, LinkStore.InlinkPage page) implements Inlinks {}

        record Invalid(String reason) implements Inlinks {}

        /** The deployment does not index links. */
        record Disabled() implements Inlinks {}
    }

    /**
     * The pages whose outlinks include the URL (normalized as submitted; inlinks are recorded against the URL as
     * linked, so an alias's inlinks are its own).
     *
     * @throws IllegalArgumentException for a cursor not returned by this API, or a limit outside 1..1000
     */
    public Inlinks inlinks(String raw, Optional<String> cursor, int limit) {
        if (links.isEmpty()) {
            return new Inlinks.Disabled();
        }
        return switch (normalizer.normalize(raw)) {
            case NormalizationResult.Rejected r -> new Inlinks.Invalid(r.reason());
            case NormalizationResult.Accepted a -> new Inlinks.Page(a.url(),
                    links.get().inlinks(a.url().urlHash(), cursor, limit));
        };
    }

    /** A short-lived link to a URL's stored body. */
    public sealed interface ContentLink {
        record Link(NormalizedUrl url, String resolvedUrl, URI uri, Instant expiresAt, String contentSha256)
                implements ContentLink {}

        /** The URL is known but no body is stored (it failed, or was never fetched itself). */
        record NoContent(NormalizedUrl url) implements ContentLink {}

        record NotFound(NormalizedUrl url) implements ContentLink {}

        record Invalid(String reason) implements ContentLink {}
    }

    /** A short-lived link to the Markdown of a URL's main content. */
    public sealed interface MarkdownLink {
        record Link(NormalizedUrl url, String resolvedUrl, URI uri, Instant expiresAt, MarkdownCopy markdown)
                implements MarkdownLink {}

        /**
         * The URL is known but its current content has no Markdown: no batch asked for it, the page had no main
         * content to render, or the extraction of its latest content has not run yet.
         */
        record NoMarkdown(NormalizedUrl url) implements MarkdownLink {}

        record NotFound(NormalizedUrl url) implements MarkdownLink {}

        record Invalid(String reason) implements MarkdownLink {}
    }

    /**
     * Resolves the URL as {@link #url} does (following a redirect or canonical alias), then presigns a GET of the
     * Markdown of its current content for {@code ttl}.
     */
    public MarkdownLink markdown(String raw, Duration ttl, Instant now) {
        return switch (url(raw)) {
            case UrlLookup.Invalid i -> new MarkdownLink.Invalid(i.reason());
            case UrlLookup.NotFound nf -> new MarkdownLink.NotFound(nf.url());
            case UrlLookup.Found found -> found.record().currentMarkdown()
                    .<MarkdownLink>map(m -> new MarkdownLink.Link(found.url(), found.resolvedUrl(),
                            blobs.presignGet(m.key(), ttl), now.plus(ttl), m))
                    .orElse(new MarkdownLink.NoMarkdown(found.url()));
        };
    }

    /** Resolves the URL as {@link #url} does, then presigns a GET of its body for {@code ttl}. */
    public ContentLink content(String raw, Duration ttl, Instant now) {
        return switch (url(raw)) {
            case UrlLookup.Invalid i -> new ContentLink.Invalid(i.reason());
            case UrlLookup.NotFound nf -> new ContentLink.NotFound(nf.url());
            case UrlLookup.Found found -> found.record().fetch().flatMap(f -> f.contentSha256())
                    .or(() -> found.record().extraction().map(ExtractionRecord::contentSha256))
                    .filter(sha -> !sha.isEmpty())
                    .<ContentLink>map(sha -> new ContentLink.Link(found.url(), found.resolvedUrl(),
                            blobs.presignGet(BucketKeys.content(sha), ttl), now.plus(ttl), sha))
                    .orElse(new ContentLink.NoContent(found.url()));
        };
    }
}
