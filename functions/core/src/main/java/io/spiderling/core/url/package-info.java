/**
 * One URL, two forms. Every accepted input has a <b>request URL</b> ({@link io.spiderling.core.url.RequestUrl}), what
 * is fetched, and a <b>key</b> ({@link io.spiderling.core.url.NormalizedUrl}), what every stage that stores,
 * deduplicates or rate-limits a URL agrees on. The rules live here, once, as pure functions from a string to a
 * decision ({@link io.spiderling.core.url.UrlNormalizer}).
 *
 * <p>The request URL is the input as a browser parses and sends it, by the WHATWG URL Standard
 * ({@link io.spiderling.core.url.WhatwgUrl}), without the fragment: a site should receive the URL that was
 * submitted, and robots.txt is decided on the path it will see. The key goes further so that spellings of one
 * resource are one URL: the query is sorted and tracking parameters are removed (how a visitor arrived is not part of
 * which page they want, and keeping it would fetch one page once per campaign), escapes are normalized. Two inputs
 * with one key are one item.
 *
 * <p>Rejections carry a short reason because clients see them in the batch response and need to know what to fix.
 * The {@link io.spiderling.core.url.SiteKey} is derived here too, from the key's host, because politeness is only as
 * good as the agreement on which URLs belong to the same site.
 */
package io.spiderling.core.url;
