/**
 * Every pipeline stage as a Quarkus Amazon Lambda handler, one package per stage: {@code ingest}, {@code canonicalize},
 * {@code fetch}, {@code extract} and {@code api}. One deployment artifact holds them all; each function picks its
 * handler with {@code QUARKUS_LAMBDA_HANDLER} (docs/adr/0001). Handlers only map events onto the core's use cases,
 * which {@link io.spiderling.lambda.Pipeline} assembles.
 */
package io.spiderling.lambda;
