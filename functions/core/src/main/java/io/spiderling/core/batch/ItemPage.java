package io.spiderling.core.batch;

import java.util.List;
import java.util.Optional;

/**
 * One page of a batch's items.
 *
 * @param cursor opaque; pass it back for the next page; empty on the last page
 */
public record ItemPage(List<BatchItem> items, Optional<String> cursor) {

    public ItemPage {
        items = List.copyOf(items);
    }
}
