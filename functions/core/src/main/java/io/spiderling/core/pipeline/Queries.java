package io.spiderling.core.pipeline;

import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.port.BatchStore;
import io.spiderling.core.port.UrlStore;
import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import java.util.Optional;

/** The read side: batch progress and URL metadata. */
public final class Queries {

    private final UrlNormalizer normalizer;
    private final BatchStore batches;
    private final UrlStore urls;

    public Queries(UrlNormalizer normalizer, BatchStore batches, UrlStore urls) {
        this.normalizer = normalizer;
        this.batches = batches;
        this.urls = urls;
    }

    public Optional<BatchStatus> batch(String batchId) {
        return batches.status(batchId);
    }

    public sealed interface UrlLookup {
        record Found(NormalizedUrl url, UrlStore.UrlRecord record) implements UrlLookup {}

        record NotFound(NormalizedUrl url) implements UrlLookup {}

        record Invalid(String reason) implements UrlLookup {}
    }

    /** Looks a URL up by any of its spellings: it is normalized the way it was when submitted. */
    public UrlLookup url(String raw) {
        return switch (normalizer.normalize(raw)) {
            case NormalizationResult.Rejected r -> new UrlLookup.Invalid(r.reason());
            case NormalizationResult.Accepted a -> urls.find(a.url().urlHash())
                    .<UrlLookup>map(rec -> new UrlLookup.Found(a.url(), rec))
                    .orElse(new UrlLookup.NotFound(a.url()));
        };
    }
}
