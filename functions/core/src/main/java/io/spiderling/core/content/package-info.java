/**
 * Where bytes live in the bucket, and what is written on them: the key layout ({@link
 * io.spiderling.core.content.BucketKeys}), the names of the objects' user metadata ({@link
 * io.spiderling.core.content.ObjectMetadata}) and the hashes both are made from ({@link
 * io.spiderling.core.content.Hashing}).
 *
 * <p>These are facts several stages share: ingest writes a manifest that canonicalize plans, fetch stores a body that
 * extract reads. They live here, once, rather than in the stage that writes them, so no stage reads another's
 * constants. Bodies are keyed by their SHA-256, so a retry after a crash overwrites the same object instead of leaving
 * a duplicate, and the two-character prefix spreads writes over S3 partitions instead of one hot prefix.
 */
package io.spiderling.core.content;
