package io.spiderling.core.port;

import java.util.Objects;

/**
 * The four batch ports, for the use cases that plan a batch's URLs (they read its header, add its items, list its
 * origins, and for an upload record its chunks). Every other user takes only the port it needs.
 */
public record BatchStores(BatchHeaderStore headers, BatchItemStore items, UploadPlanStore uploads,
        BatchOriginStore origins) {

    public BatchStores {
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(items, "items");
        Objects.requireNonNull(uploads, "uploads");
        Objects.requireNonNull(origins, "origins");
    }

    /** The ports of one store that keeps headers, items and uploads together (they share the header's counts). */
    public static <S extends BatchHeaderStore & BatchItemStore & UploadPlanStore> BatchStores of(S batches,
            BatchOriginStore origins) {
        return new BatchStores(batches, batches, batches, origins);
    }
}
