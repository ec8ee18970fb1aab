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

    /**
     * How long before a request's send window opens ({@link FetchRequest#send()}) this fetcher may be called: it then
     * holds the request until the window opens, on the thread that writes it, which keeps the caller's own delays
     * (waking up, opening the connection) out of the moment the request goes out. Zero: it holds nothing, so call
     * it at the window's start.
     */
    default java.time.Duration lead() {
        return java.time.Duration.ZERO;
    }
}
