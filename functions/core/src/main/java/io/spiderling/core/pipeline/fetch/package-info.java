/**
 * The fetch stage: {@link io.spiderling.core.pipeline.fetch.FetchPage} and what only it needs. The politeness gate
 * ({@link io.spiderling.core.pipeline.fetch.SitePoliteness}) is here, not in a package of its own, because robots.txt
 * is fetched through the same gate, rate and redirect follower as a page: kept together, the two chains cannot drift
 * apart. The pieces that build the stored row and end the waiting items are package-private, so no other stage
 * comes to depend on how fetch records its answers.
 */
package io.spiderling.core.pipeline.fetch;
