/**
 * Where bytes live in the content store. Keys are derived from the normalized URL's hash, so a retry after a crash
 * overwrites the same object instead of leaving a duplicate, and the two-character prefix spreads writes over S3
 * partitions instead of one hot prefix.
 */
package io.spiderling.core.content;
