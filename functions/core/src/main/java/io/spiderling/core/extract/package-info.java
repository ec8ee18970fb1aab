/**
 * Turning stored bytes into metadata. Extraction runs on content that has already been fetched, so it is a pure
 * function of the bytes and the response headers: it can be re-run after a crash or on a duplicate storage event and
 * give the same answer. It never throws on bad HTML, because the web is full of it and one page must not stop a batch.
 *
 * <p>The bytes are decoded as a browser would decode them ({@link io.spiderling.core.extract.EncodingSniffer}) before
 * jsoup sees them. Everything taken from a page is capped (text lengths, map entries, JSON-LD items, outlinks),
 * because the page decides how much it holds and the metadata row must stay small.
 *
 * <p>The page's own directives ({@code X-Robots-Tag}, {@code <meta name="robots">}) are read here too
 * ({@link io.spiderling.core.extract.PageDirectivesParser}): they are about what may be done with the page afterwards,
 * not about whether to fetch it, which is robots.txt's part.
 */
package io.spiderling.core.extract;
