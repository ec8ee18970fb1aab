/**
 * In-memory fakes of the ports, for pure unit tests of the pipeline. Each store fake runs its port's contract (the
 * abstract {@code io.spiderling.core.port.*Contract} classes of these test sources, published in core's test-jar),
 * which its AWS adapter runs too, so a test never passes only because the fake is more forgiving than production.
 * The recording queues ({@link io.spiderling.core.testing.RecordingFetchQueue},
 * {@link io.spiderling.core.testing.RecordingPlanQueue}) have no contract: their ports are write-only, so a contract
 * would have nothing to read back through them; an SQS adapter's test reads the queue itself. Writes are recorded in a
 * shared {@link io.spiderling.core.testing.CallLog}, so that tests can assert the order in which a stage touches its
 * stores.
 *
 * <p>{@link io.spiderling.core.testing.PropertySeeds} holds the one seed of the property tests (jqwik), so that their
 * inputs are the same in every run.
 */
package io.spiderling.core.testing;
