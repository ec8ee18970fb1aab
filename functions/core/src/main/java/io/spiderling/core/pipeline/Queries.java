package io.spiderling.core.pipeline;

import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ItemPage;
import io.spiderling.core.batch.ItemState;
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

    /** Largest page {@link #items} returns. */
    public static final int MAX_PAGE = 1000;

    /**
     * A page of the batch's items, optionally in one state; empty for an unknown batch.
     *
     * @throws IllegalArgumentException for a cursor that was not returned by this API, or a limit outside 1..1000
     */
    public Optional<ItemPage> items(String batchId, Optional<ItemState> state, Optional<String> cursor, int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_PAGE + ", was " + limit);
        }
        if (batches.status(batchId).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(batches.items(batchId, state, cursor, limit));
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
