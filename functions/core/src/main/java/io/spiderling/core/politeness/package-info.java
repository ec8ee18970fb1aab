/**
 * How hard, and how often, Spiderling may knock on a site: the per-site rate decision, the reading of
 * {@code Retry-After}, and whether and when a failed fetch is tried again.
 *
 * <p>Everything here is a pure function of a state, an outcome and the time, with randomness passed in as a
 * {@code jitter} in [0, 1): the same inputs give the same decision, so the policies are table-tested with fixed
 * instants, and the fetch stage owns the clock, the random source and the DynamoDB item. StormCrawler keeps its
 * politeness state private and reads the clock itself; nobody can test it alone.
 *
 * <p>The policies, with their defaults (see each class for the reasons):
 * <ul>
 *   <li>{@link io.spiderling.core.politeness.RateLimiter}: Aragog's slots, 1 request per second and at most 2 in
 *       flight per site, no wait longer than 1 s for a slot; slower when responses are slower (interval at least
 *       twice the smoothed fetch time, shared by the requests allowed in flight) and when robots.txt asks for a crawl delay; each 429/503 doubles the interval
 *       (up to 60 s) and pauses the site for its Retry-After (capped at 10 min) or an escalating 60 s, 2 min, …; ten
 *       successes in a row halve the interval again. A slot is a send window of a tenth of the interval, and slots are
 *       the interval plus that window apart, so a request written late within its window (the fetcher does not send
 *       one past it) still reaches the site an interval before the next.</li>
 *   <li>{@link io.spiderling.core.politeness.RateOverrides}: an operator's file of per-site rates.</li>
 *   <li>{@link io.spiderling.core.politeness.RetryPolicy}: 5xx, timeouts and network failures get 3 attempts in
 *       all, 429/503 up to 5, with equal-jitter exponential backoff from 30 s (×4) and Retry-After as a lower bound;
 *       other 4xx end at once.</li>
 * </ul>
 * The site slows itself down twice over on a 429: the limiter pauses the whole site, and the retry policy parks the
 * one URL. Both are deliberate; the pause protects the site from the other URLs, the retry delay counts the attempts.
 */
package io.spiderling.core.politeness;
