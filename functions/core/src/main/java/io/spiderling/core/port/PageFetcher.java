package io.spiderling.core.port;

import io.spiderling.core.fetch.FetchResult;

/** Performs one HTTP GET. Network problems are results, not exceptions: they are the site's outcome, not ours. */
public interface PageFetcher {

    FetchResult fetch(String url);
}
