/**
 * The pipeline's stages as use cases: ingest, canonicalize, fetch, extract and the read side. Each takes its ports and
 * a {@link java.time.Clock} in its constructor; the Lambda handlers only map events onto them, so the same code runs
 * on AWS, in the tests and in the local runner.
 */
package io.spiderling.core.pipeline;
