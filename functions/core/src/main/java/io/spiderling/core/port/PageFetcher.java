package io.spiderling.core.port;

import io.spiderling.core.fetch.FetchRequest;
import io.spiderling.core.fetch.FetchResult;

/**
 * Performs one HTTP GET. Network problems are results, not exceptions: they are the site's outcome, not ours. An
 * address the SSRF guard refuses is a {@link FetchResult.Failure} of kind {@code blocked}, checked on the address
 * actually connected to, and again on every redirect the fetcher follows.
 */
public interface PageFetcher {

    FetchResult fetch(FetchRequest request);
}
