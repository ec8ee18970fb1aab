/**
 * In-memory fakes of the ports, for pure unit tests of the pipeline. Each follows its port's javadoc; where the port
 * is silent (an unknown item, a missing header) it does what the DynamoDB adapter does, so a test never passes only
 * because the fake is more forgiving than production. Writes are recorded in a shared {@link
 * io.spiderling.core.testing.CallLog}, so that tests can assert the order in which a stage touches its stores.
 *
 * <p>{@link io.spiderling.core.testing.PropertySeeds} holds the one seed of the property tests (jqwik), so that their
 * inputs are the same in every run.
 */
package io.spiderling.core.testing;
