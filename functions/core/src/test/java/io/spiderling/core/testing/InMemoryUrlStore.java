package io.spiderling.core.testing;

import io.spiderling.core.change.ContentChange;
import io.spiderling.core.content.MarkdownCopy;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.port.UrlStore;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A {@link UrlStore} in a map, with the port's rules: an older fetch does not replace a newer one, extractions are
 * conditional on the content hash, redirect aliases yield to a newer fetch of the URL itself, and application fields
 * are versioned; a fetch's change requests meet its extraction on the row.
 */
public final class InMemoryUrlStore implements UrlStore {

    private final CallLog log;
    private final Map<String, Row> rows = new HashMap<>();
    private final Map<String, ClaimRow> claims = new HashMap<>();

    private record ClaimRow(String batchId, Instant at, Set<String> waiters) {}

    private static final class Row {
        Optional<FetchRecord> fetch = Optional.empty();
        Optional<ExtractionRecord> extraction = Optional.empty();
        Optional<String> redirectsTo = Optional.empty();
        Instant redirectedAt = Instant.MIN;
        Map<String, String> fields = Map.of();
        long fieldsVersion;
        List<String> linked = List.of();
        Optional<ContentChange> change = Optional.empty();
        Optional<MarkdownCopy> markdown = Optional.empty();
        /** The fetch whose change requests {@code noticeTo} holds; null for none. */
        Instant noticeFrom;
        Set<String> noticeTo = new LinkedHashSet<>();
    }

    public InMemoryUrlStore(CallLog log) {
        this.log = log;
    }

    private Row row(String urlHash) {
        return rows.computeIfAbsent(urlHash, h -> new Row());
    }

    @Override
    public void recordFetch(FetchRecord record) {
        log.record("UrlStore", "recordFetch", record.urlHash() + " " + record.state());
        Row row = row(record.urlHash());
        if (row.fetch.filter(f -> f.fetchedAt().isAfter(record.fetchedAt())).isPresent()
                || row.redirectedAt.isAfter(record.fetchedAt())) {
            return;
        }
        row.fetch = Optional.of(record);
        row.redirectsTo = Optional.empty();
        row.redirectedAt = Instant.MIN;
    }

    @Override
    public Optional<ContentChange> recordExtraction(ExtractionRecord record, Optional<MarkdownCopy> markdown) {
        log.record("UrlStore", "recordExtraction", record.urlHash());
        Row row = row(record.urlHash());
        Instant read = record.contentFetchedAt();
        boolean newerExtraction = row.extraction.filter(e -> e.contentFetchedAt().isAfter(read)).isPresent();
        boolean newerOtherFetch = row.fetch.filter(f -> f.fetchedAt().isAfter(read)
                && !f.contentSha256().equals(Optional.of(record.contentSha256()))).isPresent();
        if (newerExtraction || newerOtherFetch) {
            return Optional.empty();
        }
        String digest = record.changeDigest().orElse(record.contentSha256());
        boolean again = row.extraction.filter(e -> e.contentFetchedAt().equals(read)
                && e.contentSha256().equals(record.contentSha256())).isPresent();
        if (!again || row.change.isEmpty()) {
            Optional<ExtractionRecord> before = again ? Optional.empty() : row.extraction;
            row.change = Optional.of(ContentChange.of(digest, before.flatMap(ExtractionRecord::changeDigest),
                    before.map(ExtractionRecord::contentFetchedAt)));
        }
        row.extraction = Optional.of(record.withChangeDigest(row.change.get().digest()));
        markdown.ifPresent(m -> row.markdown = Optional.of(m));
        return row.change;
    }

    @Override
    public Optional<ContentChange> requestChangeNotices(String urlHash, Instant fetchedAt, String contentSha256,
            Set<String> batchIds) {
        log.record("UrlStore", "requestChangeNotices", urlHash + " " + batchIds.size());
        Row row = rows.get(urlHash);
        if (row == null || batchIds.isEmpty()
                || row.fetch.filter(f -> f.fetchedAt().equals(fetchedAt)).isEmpty()) {
            return Optional.empty();
        }
        if (fetchedAt.equals(row.noticeFrom)) {
            if (row.noticeTo.size() >= MAX_CHANGE_REQUESTS) {
                return Optional.empty();
            }
            row.noticeTo.addAll(batchIds);
        } else if (row.noticeFrom == null || row.noticeFrom.isBefore(fetchedAt)) {
            row.noticeFrom = fetchedAt;
            row.noticeTo = new LinkedHashSet<>(batchIds);
        } else {
            return Optional.empty();
        }
        return row.extraction.filter(e -> e.contentFetchedAt().equals(fetchedAt)
                && e.contentSha256().equals(contentSha256)).flatMap(e -> row.change);
    }

    @Override
    public Set<String> changeNoticeRequests(String urlHash, Instant contentFetchedAt) {
        Row row = rows.get(urlHash);
        return row == null || !contentFetchedAt.equals(row.noticeFrom) ? Set.of() : Set.copyOf(row.noticeTo);
    }

    @Override
    public void recordLinked(String urlHash, List<String> outlinks, Instant contentFetchedAt) {
        log.record("UrlStore", "recordLinked", urlHash);
        Row row = row(urlHash);
        if (row.extraction.filter(e -> e.contentFetchedAt().equals(contentFetchedAt)).isPresent()) {
            row.linked = List.copyOf(outlinks);
        }
    }

    @Override
    public boolean recordMarkdown(String urlHash, MarkdownCopy markdown) {
        log.record("UrlStore", "recordMarkdown", urlHash);
        Row row = rows.get(urlHash);
        if (row == null || row.extraction.filter(e -> e.contentSha256().equals(markdown.contentSha256())).isEmpty()) {
            return false;
        }
        row.markdown = Optional.of(markdown);
        return true;
    }

    @Override
    public void recordRedirect(String urlHash, String url, String target, Instant at) {
        log.record("UrlStore", "recordRedirect", urlHash + " " + target);
        Row row = row(urlHash);
        if (row.fetch.filter(f -> f.fetchedAt().isAfter(at)).isPresent() || row.redirectedAt.isAfter(at)) {
            return;
        }
        row.redirectsTo = Optional.of(target);
        row.redirectedAt = at;
    }

    @Override
    public boolean replaceFields(String urlHash, String url, Map<String, String> fields, long expectedVersion) {
        log.record("UrlStore", "replaceFields", urlHash);
        Row row = row(urlHash);
        if (row.fieldsVersion != expectedVersion) {
            return false;
        }
        row.fields = Map.copyOf(fields);
        row.fieldsVersion++;
        return true;
    }

    @Override
    public Optional<UrlRecord> find(String urlHash) {
        return Optional.ofNullable(rows.get(urlHash)).map(r -> UrlRecord.builder().urlHash(urlHash).fetch(r.fetch)
                .extraction(r.extraction).redirectsTo(r.redirectsTo).fields(r.fields).fieldsVersion(r.fieldsVersion)
                .linked(r.linked).change(r.change).markdown(r.markdown).build());
    }

    @Override
    public Claim claim(String urlHash, String url, String batchId, Instant now, Instant staleBefore) {
        log.record("UrlStore", "claim", urlHash + " " + batchId);
        ClaimRow current = claims.get(urlHash);
        if (current != null && current.at().isAfter(staleBefore) && !current.batchId().equals(batchId)) {
            current.waiters().add(batchId);
            return Claim.JOINED;
        }
        Set<String> waiters = current == null ? new LinkedHashSet<>() : current.waiters();
        claims.put(urlHash, new ClaimRow(batchId, now, waiters));
        return Claim.CLAIMED;
    }

    @Override
    public List<String> releaseClaim(String urlHash) {
        log.record("UrlStore", "releaseClaim", urlHash);
        ClaimRow released = claims.remove(urlHash);
        return released == null ? List.of() : List.copyOf(released.waiters());
    }

    public boolean claimed(String urlHash) {
        return claims.containsKey(urlHash);
    }
}
