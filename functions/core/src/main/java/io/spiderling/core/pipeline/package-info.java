/**
 * The pipeline's stages as use cases, one subpackage per use case: {@code ingest} (a batch submitted, its upload
 * planned, its URLs canonicalized), {@code fetch}, {@code extract}, {@code batch} (a batch's life after ingest:
 * waiting, progress, cancellation, completion) and {@code query} (the read side). Each use case takes its ports and a
 * {@link java.time.Clock} in its constructor; the Lambda handlers only map events onto them, so the same code runs on
 * AWS, in the tests and in the local runner. This package itself holds only what several use cases share:
 * {@link io.spiderling.core.pipeline.BatchTracker}, which ends items for every stage that ends them,
 * {@link io.spiderling.core.pipeline.ChangeNotices}, where fetch and extract each do their half of telling the batches
 * that asked for changes, and {@link io.spiderling.core.pipeline.MessageGroups}, the handlers' per-group failure
 * handling.
 *
 * <p><b>Use-case packages do not use each other, not even for a constant.</b> Each stage runs in its own function, is
 * retried on its own and changes on its own; if extract read fetch's metadata names, or canonicalize parsed keys with
 * ingest's method, a change to one stage would silently change another. A fact two stages share lives where it
 * belongs, once: the bucket's key layout and the objects' metadata names in {@code content} ({@code BucketKeys},
 * {@code ObjectMetadata}), a tunable such as the claim timeout in a settings record the composition root passes in
 * ({@link io.spiderling.core.pipeline.ingest.ItemPlanner.Settings}), a helper several use cases need in this package.
 * When one stage must trigger another inline (fetch finding a body already stored asks for its extraction), the
 * composition root wires a listener, so neither knows the other. A helper only its own use case needs stays
 * package-private beside it. {@code ArchitectureTest} in core's tests checks all of this, sources included, since
 * javac copies constants into the classes that read them.
 */
package io.spiderling.core.pipeline;
