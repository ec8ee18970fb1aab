/**
 * Sitemaps (ADR 19) as pure decisions: what a fetched sitemap lists, which of its entries a batch may take by the
 * sitemaps protocol's location rules, within which limits, and which entries a fresh stored copy makes unnecessary.
 *
 * <p>No I/O and no clock: the fetch stage fetches the sitemap like any page and passes its body, the batch's budget
 * and the time in. crawler-commons parses, in its lenient mode, so that every entry the rules refuse is reported with
 * its reason rather than dropped; gzip is decompressed here, within the protocol's 50 MB, because crawler-commons
 * sets no bound. A sitemap is hostile input: its size, its entries and the depth of indexes are bounded, and every
 * limit that cuts one short is reported with how much it left out. {@link RobotsTxtSitemaps} reads the sitemaps a
 * site's robots.txt names, for a batch that asks for the sites' own.
 */
package io.spiderling.core.sitemap;
