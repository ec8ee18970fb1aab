package io.spiderling.core.extract;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the schema.org items of JSON-LD blocks into {@link StructuredData}: a few fields per type, all as strings.
 *
 * <p>It reads JSON-LD as plain JSON, as search engines do, and does not expand contexts: {@code @type} is taken as
 * written, less a {@code schema.org} prefix. Items are found at the top of a block, in a top-level array, and in
 * {@code @graph}; items nested in other items' properties (a Product in an ItemList) are not items of the page here.
 *
 * <p>Pages are written by hand or by templates, so the JSON is read leniently where that costs nothing: raw line
 * breaks inside strings and trailing commas are accepted, and a block wrapped in an HTML comment or CDATA section is
 * unwrapped. A block that still does not parse is skipped; the others count.
 */
final class JsonLd {

    static final int MAX_FIELD_LENGTH = 500;
    /** Deeper JSON is refused by the parser, so that a hostile block cannot cost more than its bytes. */
    private static final int MAX_NESTING = 64;
    /** How deep items are looked for: array, object, {@code @graph} array, object, and one more for a nested graph. */
    private static final int MAX_ITEM_DEPTH = 5;
    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING).build())
                    .enable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS, JsonReadFeature.ALLOW_TRAILING_COMMA)
                    .build())
            // a price of 19.90 stays "19.90", neither the double 19.9 nor a stripped decimal
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private JsonLd() {}

    /**
     * Adds the items of one block to {@code items} until it holds {@code maxItems}.
     *
     * @return false when the block is not JSON (nothing was added)
     */
    static boolean read(String block, List<StructuredData> items, int maxItems) {
        if (items.size() >= maxItems) {
            return true;
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(unwrapped(block));
        } catch (JacksonException e) {
            return false;
        }
        if (root == null) {
            return false;
        }
        collect(root, 0, items, maxItems);
        return true;
    }

    private static String unwrapped(String block) {
        String json = block.strip();
        json = between(json, "<!--", "-->");
        json = between(json, "<![CDATA[", "]]>");
        return json;
    }

    private static String between(String text, String open, String close) {
        if (text.startsWith(open) && text.endsWith(close) && text.length() >= open.length() + close.length()) {
            return text.substring(open.length(), text.length() - close.length()).strip();
        }
        return text;
    }

    private static void collect(JsonNode node, int depth, List<StructuredData> items, int maxItems) {
        if (depth > MAX_ITEM_DEPTH || items.size() >= maxItems) {
            return;
        }
        if (node.isArray()) {
            for (JsonNode element : node) {
                collect(element, depth + 1, items, maxItems);
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        String type = type(node.get("@type"));
        if (type != null) {
            items.add(new StructuredData(type, fields(type, node)));
        }
        JsonNode graph = node.get("@graph");
        if (graph != null) {
            collect(graph, depth + 1, items, maxItems);
        }
    }

    /** The first type named, without a schema.org prefix; {@code null} when there is none. */
    private static String type(JsonNode node) {
        JsonNode first = first(node);
        if (first == null || !first.isTextual()) {
            return null;
        }
        String type = first.asText().strip();
        for (String prefix : List.of("https://schema.org/", "http://schema.org/")) {
            if (Text.startsWithIgnoringCase(type, prefix)) {
                type = type.substring(prefix.length());
                break;
            }
        }
        return Text.clean(type, MAX_FIELD_LENGTH);
    }

    private static Map<String, String> fields(String type, JsonNode item) {
        Map<String, String> fields = new LinkedHashMap<>();
        switch (type) {
            case "Product" -> {
                put(fields, "name", scalar(item.get("name")));
                put(fields, "description", scalar(item.get("description")));
                put(fields, "sku", scalar(item.get("sku")));
                put(fields, "brand", name(item.get("brand")));
                put(fields, "image", image(item.get("image")));
                JsonNode offer = first(item.get("offers"));
                if (offer != null && offer.isObject()) {
                    String price = scalar(offer.get("price"));
                    put(fields, "price", price != null ? price : scalar(offer.get("lowPrice"))); // AggregateOffer
                    put(fields, "priceCurrency", scalar(offer.get("priceCurrency")));
                    put(fields, "availability", scalar(offer.get("availability")));
                }
            }
            case "Article", "NewsArticle", "BlogPosting" -> {
                put(fields, "headline", scalar(item.get("headline")));
                put(fields, "author", name(item.get("author")));
                put(fields, "datePublished", scalar(item.get("datePublished")));
                put(fields, "dateModified", scalar(item.get("dateModified")));
                put(fields, "image", image(item.get("image")));
            }
            case "Recipe" -> {
                put(fields, "name", scalar(item.get("name")));
                put(fields, "recipeYield", scalar(first(item.get("recipeYield"))));
                put(fields, "totalTime", scalar(item.get("totalTime")));
                put(fields, "cookTime", scalar(item.get("cookTime")));
                put(fields, "prepTime", scalar(item.get("prepTime")));
                put(fields, "author", name(item.get("author")));
            }
            default -> {
                put(fields, "name", scalar(item.get("name")));
                put(fields, "url", scalar(item.get("url")));
                put(fields, "description", scalar(item.get("description")));
            }
        }
        return fields;
    }

    private static void put(Map<String, String> fields, String key, String value) {
        if (value != null) {
            fields.put(key, value);
        }
    }

    /** A string, number or boolean as text; anything else, or blank text, is {@code null}. */
    private static String scalar(JsonNode node) {
        if (node == null) {
            return null;
        }
        String text;
        if (node.isTextual()) {
            text = node.asText();
        } else if (node.isBigDecimal()) {
            text = node.decimalValue().toPlainString(); // not "1E+3"
        } else if (node.isNumber() || node.isBoolean()) {
            text = node.asText();
        } else {
            return null;
        }
        return Text.clean(text, MAX_FIELD_LENGTH);
    }

    /** A name given as a string, as a thing with a name ({@code {"@type": "Person", "name": …}}), or a list of those. */
    private static String name(JsonNode node) {
        JsonNode first = first(node);
        if (first != null && first.isObject()) {
            return scalar(first.get("name"));
        }
        return scalar(first);
    }

    /** An image given as a URL, as an ImageObject, or a list of those. */
    private static String image(JsonNode node) {
        JsonNode first = first(node);
        if (first != null && first.isObject()) {
            String url = scalar(first.get("url"));
            return url != null ? url : scalar(first.get("contentUrl"));
        }
        return scalar(first);
    }

    /** The first element of an array, or the node itself; {@code null} for an empty array or a missing node. */
    private static JsonNode first(JsonNode node) {
        if (node == null || !node.isArray()) {
            return node;
        }
        return node.isEmpty() ? null : node.get(0);
    }
}
