/**
 * robots.txt (RFC 9309) as pure decisions: what a fetch of {@code /robots.txt} means, what to keep of it and for how
 * long, and whether a URL may be fetched now. There is one policy per origin (scheme, host and port), because that
 * is what a robots.txt file speaks for.
 *
 * <p>No I/O happens here. The adapter fetches robots.txt, following up to five redirects, and reports the outcome;
 * {@link io.spiderling.core.robots.RobotsPolicy} turns it into a {@link io.spiderling.core.robots.RobotsCacheEntry}
 * for the {@code sites} table, and turns an entry, a URL and the time into a
 * {@link io.spiderling.core.robots.RobotsVerdict}. Time and randomness are arguments, so every rule, outages and
 * backoff included, is table-tested without a clock or a network.
 *
 * <p>crawler-commons parses robots.txt; {@link io.spiderling.core.robots.RobotsRules} matches, because crawler-commons'
 * matcher missed {@code $}-anchored patterns whose last part recurs and took time quadratic in the pattern. A file is
 * hostile input: what is kept of it, the rules it yields and the steps of a decision are bounded, and
 * {@code RobotsPolicyPropertyTest} checks each bound by counting.
 *
 * <p>The distinction that matters most is between "no rules" and "rules unknown". A 4xx means the site has no rules
 * for us and everything is allowed; a 5xx, a 429 or a network failure means we do not know the rules, so nothing is
 * fetched on their account until they are known again, from a retry or from the last good copy. When neither comes
 * in time, URLs fail as {@code robots-unreachable}, which tells the client we could not ask, not that the site said
 * no.
 */
package io.spiderling.core.robots;
