package io.spiderling.core.testing;

import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.port.UrlStore;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link UrlStore} in a map, with the port's staleness rule for extractions. Like {@code DynamoDbUrlStore}, it keeps
 * a stored fetch when handed an older one (the port does not say so; a late retry must not roll the row back).
 */
public final class InMemoryUrlStore implements UrlStore {

    private final CallLog log;
    private final Map<String, UrlRecord> rows = new HashMap<>();

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
}
