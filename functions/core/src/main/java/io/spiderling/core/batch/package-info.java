/**
 * Batches: what a client submits and the per-URL work that finishes it. Planning is pure, so that ingest (which
 * answers the client with syntax-level counts at once) and any later re-read of the stored manifest always arrive at
 * the same URLs and the same counts.
 */
package io.spiderling.core.batch;
