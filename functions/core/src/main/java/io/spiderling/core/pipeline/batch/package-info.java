/**
 * A batch's life once its URLs are in: why it waits ({@link io.spiderling.core.pipeline.batch.BatchWaiting}), its
 * progress reports and callbacks ({@link io.spiderling.core.pipeline.batch.NotifyBatch}), cancellation and the
 * completion event. They act on the batch as a whole, never on one URL, so they change with the batch model and not
 * with the stages that fetch its URLs.
 */
package io.spiderling.core.pipeline.batch;
