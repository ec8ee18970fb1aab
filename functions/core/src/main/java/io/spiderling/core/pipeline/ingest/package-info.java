/**
 * A batch coming in: submitted ({@link io.spiderling.core.pipeline.ingest.Ingest}), its uploaded manifest planned in
 * chunks ({@link io.spiderling.core.pipeline.ingest.PlanUpload}), and its queued URLs normalized, deduplicated and
 * claimed for fetching ({@link io.spiderling.core.pipeline.ingest.Canonicalize}). They live together because the
 * last two plan URLs the same way, through {@link io.spiderling.core.pipeline.ingest.ItemPlanner}: an inline batch
 * and an uploaded one must skip, join and claim alike. What a fetched sitemap lists
 * ({@link io.spiderling.core.pipeline.ingest.ExpandSitemap}), and the sitemaps a site's robots.txt names
 * ({@link io.spiderling.core.pipeline.ingest.ReadRobotsTxt}), join their batch here too, by the same path (ADR 19).
 */
package io.spiderling.core.pipeline.ingest;
