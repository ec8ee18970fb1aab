/**
 * The one description of a Spiderling deployment, in code: {@link io.spiderling.catalog.Table tables},
 * {@link io.spiderling.catalog.Queue queues}, {@link io.spiderling.catalog.BucketPrefix bucket prefixes} and
 * {@link io.spiderling.catalog.Secret secrets}; the {@link io.spiderling.catalog.ConfigKeys configuration keys};
 * the {@link io.spiderling.catalog.Routes HTTP route table}; and the {@link io.spiderling.catalog.Catalog functions},
 * each with its event source, size and access. The test kit's provisioner, the handlers, the local runner and the CDK
 * stack all read it, so they cannot drift apart (ADR 12). No dependencies, so anything can read it.
 */
package io.spiderling.catalog;
