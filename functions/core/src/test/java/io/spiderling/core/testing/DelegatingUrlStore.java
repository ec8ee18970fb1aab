package io.spiderling.core.testing;

import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.port.UrlStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A {@link UrlStore} that passes every call on; tests override the calls they make fail or race. */
public class DelegatingUrlStore implements UrlStore {

    protected final UrlStore delegate;

    public DelegatingUrlStore(UrlStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public void recordFetch(FetchRecord record) {
        delegate.recordFetch(record);
    }

    @Override
    public Optional<io.spiderling.core.change.ContentChange> recordExtraction(ExtractionRecord record,
            Optional<io.spiderling.core.content.MarkdownCopy> markdown) {
        return delegate.recordExtraction(record, markdown);
    }

    @Override
    public Optional<io.spiderling.core.change.ContentChange> requestChangeNotices(String urlHash, Instant fetchedAt,
            String contentSha256, java.util.Set<String> batchIds) {
        return delegate.requestChangeNotices(urlHash, fetchedAt, contentSha256, batchIds);
    }

    @Override
    public java.util.Set<String> changeNoticeRequests(String urlHash, Instant contentFetchedAt) {
        return delegate.changeNoticeRequests(urlHash, contentFetchedAt);
    }

    @Override
    public void recordLinked(String urlHash, List<String> outlinks, Instant contentFetchedAt) {
        delegate.recordLinked(urlHash, outlinks, contentFetchedAt);
    }

    @Override
    public boolean recordMarkdown(String urlHash, io.spiderling.core.content.MarkdownCopy markdown) {
        return delegate.recordMarkdown(urlHash, markdown);
    }

    @Override
    public void recordRedirect(String urlHash, String url, String target, Instant at) {
        delegate.recordRedirect(urlHash, url, target, at);
    }

    @Override
    public boolean replaceFields(String urlHash, String url, Map<String, String> fields, long expectedVersion) {
        return delegate.replaceFields(urlHash, url, fields, expectedVersion);
    }

    @Override
    public Optional<UrlRecord> find(String urlHash) {
        return delegate.find(urlHash);
    }

    @Override
    public Map<String, UrlRecord> findAll(java.util.Collection<String> urlHashes) {
        return delegate.findAll(urlHashes);
    }

    @Override
    public Claim claim(String urlHash, String url, String batchId, Instant now, Instant staleBefore) {
        return delegate.claim(urlHash, url, batchId, now, staleBefore);
    }

    @Override
    public List<Claim> claimAll(List<ClaimRequest> requests, String batchId, Instant now, Instant staleBefore) {
        return delegate.claimAll(requests, batchId, now, staleBefore);
    }

    @Override
    public List<String> releaseClaim(String urlHash) {
        return delegate.releaseClaim(urlHash);
    }
}
