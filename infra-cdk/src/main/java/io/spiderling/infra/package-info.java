/**
 * The CDK app that deploys Spiderling, every resource derived from the catalog ({@code io.spiderling.catalog}):
 * {@link io.spiderling.infra.SpiderlingApp} reads the deployment's choices from context into
 * {@link io.spiderling.infra.SpiderlingStackProps}; {@link io.spiderling.infra.SpiderlingStack} composes one construct
 * per concern ({@link io.spiderling.infra.Storage}, {@link io.spiderling.infra.Queues},
 * {@link io.spiderling.infra.Functions}, {@link io.spiderling.infra.EventSources},
 * {@link io.spiderling.infra.HttpApiConstruct}, {@link io.spiderling.infra.Operations}). The function artifact is an
 * input ({@link io.spiderling.infra.FunctionArtifact}), so the stack never builds the functions.
 */
package io.spiderling.infra;
