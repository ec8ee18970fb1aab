package io.spiderling.core.batch;

import io.spiderling.core.url.NormalizationResult.Accepted;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of planning one batch.
 *
 * @param accepted distinct URLs (by key), in the order they were first submitted, each in the spelling first submitted
 * @param duplicates how many submitted URLs normalized to one already accepted
 * @param rejected the URLs that cannot be fetched, in submission order
 */
public record BatchPlan(List<Accepted> accepted, int duplicates, List<Rejection> rejected) {

    public BatchPlan {
        accepted = List.copyOf(accepted);
        rejected = List.copyOf(rejected);
        if (duplicates < 0) {
            throw new IllegalArgumentException("duplicates must not be negative: " + duplicates);
        }
    }

    /** The accepted URLs' keys, in submission order. */
    public List<NormalizedUrl> urls() {
        return accepted.stream().map(Accepted::url).toList();
    }

    /** The accepted URLs' keys grouped by site, sites in order of first appearance, URLs in submission order. */
    public Map<SiteKey, List<NormalizedUrl>> bySite() {
        Map<SiteKey, List<NormalizedUrl>> sites = new LinkedHashMap<>();
        for (NormalizedUrl url : urls()) {
            sites.computeIfAbsent(url.siteKey(), site -> new ArrayList<>()).add(url);
        }
        sites.replaceAll((site, urls) -> Collections.unmodifiableList(urls));
        return Collections.unmodifiableMap(sites);
    }
}
