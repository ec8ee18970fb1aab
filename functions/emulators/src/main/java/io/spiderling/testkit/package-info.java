/**
 * Test fixtures for Spiderling that need no Docker and no network. The module {@code functions/emulators} holds what
 * also runs for a user (the stack, the sites); {@code functions/testkit} adds, in this same package, what only tests
 * use (the JUnit extension, the fault injector).
 *
 * <ul>
 *   <li>{@link io.spiderling.testkit.EmbeddedAws}: ElasticMQ, DynamoDB Local and s3proxy in this JVM on 127.0.0.1,
 *       with SDK clients for them. {@link io.spiderling.testkit.SpiderlingProvisioner} creates one deployment's
 *       bucket, tables and queues under a prefix, so tests sharing a stack stay isolated.
 *   <li>{@code EmbeddedAwsExtension} (testkit): the JUnit extension that shares one stack per test run, because the
 *       emulators take seconds to start and milliseconds to provision.
 *   <li>{@link io.spiderling.testkit.LocalSites}: web sites on distinct loopback hosts that record what they were
 *       asked, so tests can assert what a crawler did to each host.
 *   <li>{@link io.spiderling.testkit.HostileFarm}: eight such sites that misbehave in every way a polite fetcher must
 *       cope with, knowing what each URL should come to ({@link io.spiderling.testkit.FarmOutcomes});
 *       {@link io.spiderling.testkit.PolitenessReport} judges a fetcher from what the sites saw.
 * </ul>
 *
 * <p>The local runner uses the same classes to run Spiderling on a laptop.
 */
package io.spiderling.testkit;
