/**
 * The pipeline's stages as use cases: ingest, canonicalize, fetch, extract and the read side. Each takes its ports and
 * a {@link java.time.Clock} in its constructor; the Lambda handlers only map events onto them, so the same code runs
 * on AWS, in the tests and in the local runner.
 *
 * <p><b>Use cases do not use each other, not even for a constant.</b> Each stage runs in its own function, is retried
 * on its own and changes on its own; if extract read fetch's metadata names, or canonicalize parsed keys with ingest's
 * method, a change to one stage would silently change another. A fact two stages share lives where it belongs, once:
 * the bucket's key layout and the objects' metadata names in {@code content} ({@code BucketKeys},
 * {@code ObjectMetadata}), a tunable such as the claim timeout in a settings record the composition root passes in
 * ({@link io.spiderling.core.pipeline.ItemPlanner.Settings}). When one stage must trigger another inline (fetch
 * finding a body already stored asks for its extraction), the composition root wires a listener, so neither knows
 * the other. The shared helpers ({@link io.spiderling.core.pipeline.BatchTracker},
 * {@link io.spiderling.core.pipeline.ItemPlanner}, {@link io.spiderling.core.pipeline.SitePoliteness}, …) may be used
 * by any use case but use none. {@code ArchitectureTest} in core's tests checks all of this, sources included, since
 * javac copies constants into the classes that read them.
 */
package io.spiderling.core.pipeline;
