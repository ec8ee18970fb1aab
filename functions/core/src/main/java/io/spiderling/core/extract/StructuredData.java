package io.spiderling.core.extract;

import java.util.Map;
import java.util.Objects;

/**
 * One schema.org item of a page's JSON-LD.
 *
 * @param type the item's {@code @type} without a {@code https://schema.org/} prefix, e.g. {@code Product}
 * @param fields the fields kept for that type, in a fixed order per type, as trimmed strings; absent ones are left out
 *     (for a Product: {@code name, description, sku, brand, image, price, priceCurrency, availability})
 */
public record StructuredData(String type, Map<String, String> fields) {

    public StructuredData {
        Objects.requireNonNull(type, "type");
        fields = PageMetadata.orderedCopy(fields);
    }
}
