package io.spiderling.core.batch;

/**
 * What planning one chunk of an uploaded manifest added to its batch.
 *
 * @param items lines that became items, valid or {@code invalid}
 * @param duplicates lines whose URL an earlier line of the manifest already holds
 */
public record ChunkCounts(int items, int duplicates) {

    public ChunkCounts {
        if (items < 0 || duplicates < 0) {
            throw new IllegalArgumentException("counts must not be negative: " + items + ", " + duplicates);
        }
    }
}
