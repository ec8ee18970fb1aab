/**
 * The read side: what the API shows of URLs and batches, and the fields a client may change. Kept apart from the
 * stages so that a view can change shape without touching what writes the data.
 */
package io.spiderling.core.pipeline.query;
