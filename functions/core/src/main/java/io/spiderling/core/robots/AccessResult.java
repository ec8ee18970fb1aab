package io.spiderling.core.robots;

/**
 * What one attempt to fetch robots.txt means, in the terms of RFC 9309 section 2.3.1. The status code alone does
 * not decide it: see {@link RobotsPolicy#classify(RobotsFetchOutcome)}.
 */
public enum AccessResult {
    /** 2xx (section 2.3.1.1): the body's rules apply. */
    SUCCESS,
    /**
     * 4xx other than 429, or more redirects than allowed (sections 2.3.1.2 and 2.3.1.3): there are no rules, so
     * everything is allowed.
     */
    UNAVAILABLE,
    /**
     * 5xx, 429, a network failure or an unfollowable redirect (section 2.3.1.4): the rules are undefined, so nothing
     * may be fetched on their account; a last good copy may stand in.
     */
    UNREACHABLE
}
