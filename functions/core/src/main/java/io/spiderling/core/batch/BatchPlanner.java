package io.spiderling.core.batch;

import io.spiderling.core.url.NormalizationResult.Accepted;
import io.spiderling.core.url.NormalizationResult.Rejected;
import io.spiderling.core.url.UrlNormalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** Validates, normalizes and deduplicates the URLs of one submitted batch. */
public final class BatchPlanner {

    /** The most URLs one batch may hold. Callers check it, so that they can answer with their own error. */
    public static final int MAX_URLS = 10_000;

    private final UrlNormalizer normalizer;

    private BatchPlanner(UrlNormalizer normalizer) {
        this.normalizer = normalizer;
    }

    public static BatchPlanner create(UrlNormalizer normalizer) {
        return new BatchPlanner(Objects.requireNonNull(normalizer, "normalizer"));
    }

    /**
     * Duplicates are detected on the normalized value, so differently spelled submissions of one URL count once: the
     * first spelling is kept, and is the one requested, and later ones are counted. Each invalid entry is rejected on its own, even if repeated.
     */
    public BatchPlan plan(List<String> rawUrls) {
        List<Accepted> accepted = new ArrayList<>();
        List<Rejection> rejected = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int duplicates = 0;
        for (String raw : rawUrls) {
            switch (normalizer.normalize(raw)) {
                case Accepted a -> {
                    if (seen.add(a.url().value())) {
                        accepted.add(a);
                    } else {
                        duplicates++;
                    }
                }
                case Rejected(String input, String reason) -> rejected.add(new Rejection(input, reason));
            }
        }
        return new BatchPlan(accepted, duplicates, rejected);
    }
}
