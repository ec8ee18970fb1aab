package io.spiderling.core.testing;

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
 * A {@link UrlStore} in a map, with the port's staleness rule for extractions. Like {@code DynamoDbUrlStore}, it keeps
 * a stored fetch when handed an older one (the port does not say so; a late retry must not roll the row back).
 */
public final class InMemoryUrlStore implements UrlStore {

    private final CallLog log;
    private final Map<String, UrlRecord> rows = new HashMap<>();
    private final Map<String, ClaimRow> claims = new HashMap<>();

    private record ClaimRow(String batchId, Instant at, Set<String> waiters) {}

    public InMemoryUrlStore(CallLog log) {
        this.log = log;
    }

    @Override
    public void recordFetch(FetchRecord record) {
        log.record("UrlStore", "recordFetch", record.urlHash() + " " + record.state());
        Optional<UrlRecord> row = find(record.urlHash());
        if (row.flatMap(UrlRecord::fetch).filter(f -> f.fetchedAt().isAfter(record.fetchedAt())).isPresent()) {
            return;
        }
        Optional<ExtractionRecord> extraction = row.flatMap(UrlRecord::extraction);
        rows.put(record.urlHash(), new UrlRecord(record.urlHash(), Optional.of(record), extraction));
    }

    @Override
    public boolean recordExtraction(ExtractionRecord record) {
        log.record("UrlStore", "recordExtraction", record.urlHash());
        Optional<UrlRecord> row = find(record.urlHash());
        Instant read = record.contentFetchedAt();
        boolean newerExtraction = row.flatMap(UrlRecord::extraction)
                .filter(e -> e.contentFetchedAt().isAfter(read)).isPresent();
        boolean newerFetch = row.flatMap(UrlRecord::fetch).filter(f -> f.fetchedAt().isAfter(read)).isPresent();
        if (newerExtraction || newerFetch) {
            return false;
        }
        rows.put(record.urlHash(),
                new UrlRecord(record.urlHash(), row.flatMap(UrlRecord::fetch), Optional.of(record)));
        return true;
    }

    @Override
    public Optional<UrlRecord> find(String urlHash) {
        return Optional.ofNullable(rows.get(urlHash));
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
