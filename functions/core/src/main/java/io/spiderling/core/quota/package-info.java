/**
 * Per-client quotas on URLs a day (issue 25): the pure decision, {@link io.spiderling.core.quota.Quota}, which the
 * gate that every way into the pipeline asks ({@code io.spiderling.core.pipeline.Quotas}) applies: {@code POST
 * /batches}, uploads and the SQS ingest queue. Days are UTC days; a quota resets at the next UTC midnight.
 */
package io.spiderling.core.quota;
