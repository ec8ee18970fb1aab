package io.spiderling.core.batch;

import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * Why an item ended as it did: one machine-readable code per terminal outcome, with the one {@link ItemState} it ends
 * in. The code is what the API, the events, {@code results.jsonl} and the CLI's summary show beside the item's
 * human-readable detail; {@code docs/api.md} lists them. Codes are stable: clients group and count by them.
 */
public enum Reason {
    /** The site answered 2xx and the body was stored. */
    FETCHED("fetched", ItemState.FETCHED),
    /** The site answered 304 to a conditional request: the stored copy is still good. */
    NOT_MODIFIED("not-modified", ItemState.NOT_MODIFIED),
    /** A copy fetched within the batch's recrawl window was kept; the site was not asked. */
    FRESH_COPY("fresh-copy", ItemState.SKIPPED),
    /** The site is on the operator's opt-out list and is never contacted. */
    OPT_OUT("opt-out", ItemState.DISALLOWED),
    /** A rule of the site's robots.txt forbids the URL; the detail names the rule, its line and the copy's age. */
    ROBOTS_DISALLOWED("robots-disallowed", ItemState.DISALLOWED),
    /**
     * robots.txt could not be read (5xx, 429, no answer) for longer than the deadline, and no good copy stood in; the
     * detail gives its status and next try.
     */
    ROBOTS_UNREACHABLE("robots-unreachable", ItemState.FAILED),
    /** The site answered an error status (4xx other than 304, or 5xx after the retries). */
    HTTP_ERROR("http-error", ItemState.FAILED),
    /** The connection was refused or reset, after the retries. */
    CONNECT_FAILED("connect-failed", ItemState.FAILED),
    /** No answer within a timeout, after the retries. */
    TIMEOUT("timeout", ItemState.FAILED),
    /** The host name did not resolve. */
    DNS_FAILED("dns-failed", ItemState.FAILED),
    /** The TLS handshake failed. */
    TLS_FAILED("tls-failed", ItemState.FAILED),
    /** The answer could not be read: a broken body, a bad encoding. */
    READ_FAILED("read-failed", ItemState.FAILED),
    /** The fetcher refused the request: the SSRF guard refused the address, or a body expanded past its limit. */
    BLOCKED("blocked", ItemState.FAILED),
    /** A redirect named a URL that is not valid or not fetched. */
    REDIRECT_INVALID("redirect-invalid", ItemState.FAILED),
    /** More redirects than allowed. */
    REDIRECT_LIMIT("redirect-limit", ItemState.FAILED),
    /** A redirect led back to a URL of its own chain. */
    REDIRECT_LOOP("redirect-loop", ItemState.FAILED),
    /** A sitemap was read: what it lists joined the batch (ADR 19); the detail counts what it listed and refused. */
    SITEMAP_EXPANDED("sitemap-expanded", ItemState.FETCHED),
    /** A sitemap was fetched but could not be read: not a sitemap, broken, too large. */
    SITEMAP_UNREADABLE("sitemap-unreadable", ItemState.FAILED),
    /** The batch had read as many sitemaps as a batch may; this one's list was not taken in. */
    SITEMAP_LIMIT("sitemap-limit", ItemState.FAILED),
    /**
     * A sitemap listed the URL with a {@code lastmod} no later than the fresh copy kept (ADR 19): the site was not
     * asked. (A {@code lastmod} after the copy has the URL fetched again, however fresh the copy.)
     */
    SITEMAP_LASTMOD("sitemap-lastmod", ItemState.SKIPPED),
    /**
     * A sitemap listed a URL of another site, which no robots.txt of that site vouched for (the sitemaps protocol's
     * cross-submit rule): not taken.
     */
    SITEMAP_OTHER_SITE("sitemap-other-site", ItemState.INVALID),
    /** A sitemap listed a URL of its own site outside the directory the sitemap lives in: not taken. */
    SITEMAP_OUTSIDE_PATH("sitemap-outside-path", ItemState.INVALID),
    /** The URL's fetch message failed too many times and went to the dead-letter queue. */
    DEAD_LETTER("dead-letter", ItemState.FAILED),
    /** The batch was cancelled before the URL was fetched. */
    BATCH_CANCELLED("batch-cancelled", ItemState.CANCELLED),
    /** The submitted text is not a URL Spiderling fetches; the detail says why. */
    INVALID_URL("invalid-url", ItemState.INVALID),
    /**
     * An uploaded manifest's chunk had no room in its client's quota of URLs for the day when it was planned: its URLs
     * are not taken. The detail gives the quota and when it resets.
     */
    OVER_QUOTA("over-quota", ItemState.INVALID);

    private final String code;
    private final ItemState state;

    Reason(String code, ItemState state) {
        this.code = code;
        this.state = state;
    }

    /** The stable code shown and stored, e.g. {@code robots-disallowed}. */
    public String code() {
        return code;
    }

    /** The terminal state an item with this reason is in. */
    public ItemState state() {
        return state;
    }

    /** The reason of {@code code}, empty when no reason has it (a row written by an older version). */
    public static Optional<Reason> ofCode(String code) {
        Objects.requireNonNull(code, "code");
        return Arrays.stream(values()).filter(r -> r.code.equals(code)).findFirst();
    }

    /**
     * The reason of a row stored before reasons were recorded, from its state and HTTP status: exact for every
     * state but {@code failed}, where a row without a status is taken as unreadable.
     */
    public static Reason presumed(ItemState state, Optional<Integer> httpStatus) {
        return switch (state) {
            case FETCHED -> FETCHED;
            case NOT_MODIFIED -> NOT_MODIFIED;
            case SKIPPED -> FRESH_COPY;
            case DISALLOWED -> ROBOTS_DISALLOWED;
            case FAILED -> httpStatus.isPresent() ? HTTP_ERROR : READ_FAILED;
            case CANCELLED -> BATCH_CANCELLED;
            case INVALID -> INVALID_URL;
            case QUEUED -> throw new IllegalArgumentException("a queued item has no reason");
        };
    }
}
