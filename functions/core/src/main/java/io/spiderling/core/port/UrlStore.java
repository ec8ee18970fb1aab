package io.spiderling.core.port;

import io.spiderling.core.change.ContentChange;
import io.spiderling.core.content.MarkdownCopy;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.fetch.FetchRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/** The per-URL metadata store, keyed by the hash of the normalized URL. */
public interface UrlStore {

    /**
     * Writes the fetch fields of the URL's row. Fields written by the extractor are left alone, because the
     * extractor may have run first (S3 events can beat the metadata write). A fetch older than the one stored (a
     * late retry) is ignored. A fetch of the URL itself ends an older redirect alias: it answers for itself again.
     */
    void recordFetch(FetchRecord record);

    /**
     * Writes the extracted fields, conditional on the content hash: refused (empty) when the row already holds an
     * extraction of content fetched later, or a fetch of other content newer than the content this extraction read.
     * Application fields are never touched.
     *
     * <p>Returns the change the row records for this content: its change digest ({@code record}'s, else its
     * SHA-256) next to the one of the content extracted before it, moved aside in the same write. Writing an
     * extraction of the content the row already holds (a retry) keeps and returns the change recorded the first
     * time, so a caller that failed after the first write learns the same change again.
     */
    default Optional<ContentChange> recordExtraction(ExtractionRecord record) {
        return recordExtraction(record, Optional.empty());
    }

    /**
     * {@link #recordExtraction(ExtractionRecord)}, and in the same write the Markdown of that content when there is
     * some ({@link #recordMarkdown}'s, without a second write); without it the row's Markdown is left as it is.
     */
    Optional<ContentChange> recordExtraction(ExtractionRecord record, Optional<MarkdownCopy> markdown);

    /**
     * The most batch ids one fetch's change requests keep ({@link #requestChangeNotices}): about 4 KB on the row.
     * Batches that ask beyond it are not told of that fetch's change.
     */
    int MAX_CHANGE_REQUESTS = 100;

    /**
     * Records on the URL's row that {@code batchIds} asked to be told if the content fetched at {@code fetchedAt}
     * changed ({@code "notify": ["changes"]}, ADR 18), with the batches recorded for that fetch before (those of an
     * older fetch are dropped). Nothing is recorded when the row's fetch is no longer the one at {@code fetchedAt}, or
     * when the fetch's requests already hold {@link #MAX_CHANGE_REQUESTS} batches.
     *
     * <p>The row is where the fetch stage, which knows the batches, and the extraction, which learns the change, meet:
     * each writes its half and reads the other's in the same write, so whichever comes second sees both. Returns the
     * change the row records for the content fetched at {@code fetchedAt} with SHA-256 {@code contentSha256} when its
     * extraction was written first (the caller then tells these batches itself); empty while it has not been, or
     * when nothing was recorded.
     */
    Optional<ContentChange> requestChangeNotices(String urlHash, Instant fetchedAt, String contentSha256,
            Set<String> batchIds);

    /**
     * The batches that asked to be told if the content fetched at {@code contentFetchedAt} changed; empty when none
     * did, or when the row holds another fetch's requests. Read after the extraction's write, and consistently, so
     * that it sees every request written before that write ({@link #requestChangeNotices}).
     */
    Set<String> changeNoticeRequests(String urlHash, Instant contentFetchedAt);

    /**
     * Records which outlinks of the URL the links table now holds, after they were written there, unless the row's
     * extraction has moved on past the content fetched at {@code contentFetchedAt}.
     */
    void recordLinked(String urlHash, List<String> outlinks, Instant contentFetchedAt);

    /**
     * Records the Markdown of the row's content ({@link MarkdownCopy}), unless the row's extraction is of other
     * content than {@code markdown.contentSha256()} (it moved on, or has not been written yet). Returns whether it was
     * recorded.
     */
    boolean recordMarkdown(String urlHash, MarkdownCopy markdown);

    /**
     * Records that the URL redirected to {@code target} at {@code at}: reads of it follow to the target's record.
     * Ignored when the row holds a fetch of its own, or an alias, newer than {@code at}.
     */
    void recordRedirect(String urlHash, String url, String target, Instant at);

    /**
     * Replaces the URL's application fields if they are still at {@code expectedVersion} (0: none were ever
     * written), creating the row if needed. Returns false when another writer changed them first.
     */
    boolean replaceFields(String urlHash, String url, Map<String, String> fields, long expectedVersion);

    Optional<UrlRecord> find(String urlHash);

    /** {@link #find} for many URLs; an adapter may read them in fewer calls. Unknown URLs are absent from the map. */
    default Map<String, UrlRecord> findAll(Collection<String> urlHashes) {
        Map<String, UrlRecord> found = new HashMap<>();
        for (String hash : urlHashes) {
            find(hash).ifPresent(record -> found.put(hash, record));
        }
        return found;
    }

    /**
     * Claims the URL for fetching on behalf of a batch, so that one fetch serves every batch that asks for it at the
     * same time. If another batch holds a live claim (made after {@code staleBefore}), the caller joins it as a waiter
     * instead. A batch that already holds the claim gets it again (a redelivered planning event).
     */
    Claim claim(String urlHash, String url, String batchId, Instant now, Instant staleBefore);

    /** One URL to {@link #claimAll}. */
    record ClaimRequest(String urlHash, String url) {}

    /**
     * {@link #claim} for many distinct URLs on behalf of one batch, returning the outcomes in order; an adapter may
     * claim them in fewer calls.
     */
    default List<Claim> claimAll(List<ClaimRequest> requests, String batchId, Instant now, Instant staleBefore) {
        List<Claim> claims = new ArrayList<>(requests.size());
        for (ClaimRequest r : requests) {
            claims.add(claim(r.urlHash(), r.url(), batchId, now, staleBefore));
        }
        return claims;
    }

    /**
     * Ends the URL's claim and returns the batches that joined it, each once, atomically: a batch either joined
     * before this call and is returned, or finds no claim afterwards and makes its own.
     */
    List<String> releaseClaim(String urlHash);

    enum Claim {
        /** The caller must queue the fetch. */
        CLAIMED,
        /** Another batch's fetch will end the caller's item too. */
        JOINED
    }

    /**
     * What is known about a URL: its last fetch and its extracted metadata, either of which may be missing, where it
     * redirects to, and the fields applications attached to it.
     *
     * @param redirectsTo the last hop of the redirect chain this URL started, when it no longer answers for itself
     * @param fields application fields by name, each value a JSON text
     * @param fieldsVersion bumped by every {@link #replaceFields}; 0 when none were written
     * @param linked the outlinks the links table holds for this URL
     */
    record UrlRecord(String urlHash, Optional<FetchRecord> fetch, Optional<ExtractionRecord> extraction,
            Optional<String> redirectsTo, Map<String, String> fields, long fieldsVersion, List<String> linked,
            Optional<ContentChange> change, Optional<MarkdownCopy> markdown) {

        public UrlRecord {
            fields = Map.copyOf(fields);
            linked = List.copyOf(linked);
            Objects.requireNonNull(change, "change");
            Objects.requireNonNull(markdown, "markdown");
        }

        public UrlRecord(String urlHash, Optional<FetchRecord> fetch, Optional<ExtractionRecord> extraction) {
            this(urlHash, fetch, extraction, Optional.empty(), Map.of(), 0, List.of(), Optional.empty(),
                    Optional.empty());
        }

        /** The Markdown of the row's current content: none when it was rendered from content the row has moved on from. */
        public Optional<MarkdownCopy> currentMarkdown() {
            return markdown.filter(m -> extraction.map(x -> x.contentSha256().equals(m.contentSha256()))
                    .orElse(false));
        }

        /** The Markdown of the body with this SHA-256, when it is the row's current content and has some. */
        public Optional<MarkdownCopy> markdownOf(String contentSha256) {
            return currentMarkdown().filter(m -> m.contentSha256().equals(contentSha256));
        }

        /** Whether the row holds a record of the page itself (a fetch or an extraction), not only a claim or alias. */
        public boolean known() {
            return fetch.isPresent() || extraction.isPresent();
        }

        /** Where reads of this URL go: the redirect target, else the page's accepted canonical URL, else nowhere. */
        public Optional<String> aliasOf() {
            return redirectsTo.or(() -> extraction.flatMap(ExtractionRecord::canonicalUrl));
        }

        /** Names each of the 9 parts where the value is made. */
        public static Builder builder() {
            return new Builder();
        }

        /** The parts by name; {@link #build} checks them as the constructor does. */
        public static final class Builder {
            private String urlHash;
            private Optional<FetchRecord> fetch = Optional.empty();
            private Optional<ExtractionRecord> extraction = Optional.empty();
            private Optional<String> redirectsTo = Optional.empty();
            private Map<String, String> fields = Map.of();
            private long fieldsVersion;
            private List<String> linked = List.of();
            private Optional<ContentChange> change = Optional.empty();
            private Optional<MarkdownCopy> markdown = Optional.empty();

            private Builder() {}

            /** The Markdown recorded on the row ({@link UrlStore#recordMarkdown}), of whatever content. */
            public Builder markdown(Optional<MarkdownCopy> value) {
                markdown = value;
                return this;
            }

            /** The change the extraction of the row's content recorded; empty before any, or before changes were. */
            public Builder change(Optional<ContentChange> value) {
                change = value;
                return this;
            }

            public Builder urlHash(String value) {
                urlHash = value;
                return this;
            }

            public Builder fetch(Optional<FetchRecord> value) {
                fetch = value;
                return this;
            }

            public Builder extraction(Optional<ExtractionRecord> value) {
                extraction = value;
                return this;
            }

            public Builder redirectsTo(Optional<String> value) {
                redirectsTo = value;
                return this;
            }

            public Builder fields(Map<String, String> value) {
                fields = value;
                return this;
            }

            public Builder fieldsVersion(long value) {
                fieldsVersion = value;
                return this;
            }

            public Builder linked(List<String> value) {
                linked = value;
                return this;
            }

            public UrlRecord build() {
                return new UrlRecord(urlHash, fetch, extraction, redirectsTo, fields, fieldsVersion, linked, change,
                        markdown);
            }
        }
    }
}
