/**
 * One URL, many spellings: every stage that stores, deduplicates or rate-limits a URL must agree on a single form of
 * it, so the rules live here, once, as a pure function from a string to a decision.
 *
 * <p>Rejections carry a short reason because clients see them in the batch response and need to know what to fix.
 * The {@link io.spiderling.core.url.SiteKey} is derived here too, because politeness is only as good as the agreement
 * on which URLs belong to the same site. Tracking parameters are removed here as well: how a visitor arrived is not
 * part of which page they want, and keeping it would fetch one page once per campaign.
 */
package io.spiderling.core.url;
