package io.spiderling.lambda;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/**
 * Seeded random JSON that is nearly what a handler expects: the handler's own field names with values of every type
 * (huge numbers, nulls, deep nesting, control characters, long strings), unknown fields, and some documents cut
 * short or with a byte that is not UTF-8. A fixed seed makes every run see the same documents.
 */
final class HostileJson {

    private static final List<String> FIELDS = List.of("url", "urls", "callbackUrl", "recrawlAfter", "progressEvery",
            "capture", "notify", "format", "batchId", "chunk", "site", "kind", "attempt", "sequence", "Records", "body", "x");
    private static final List<String> STRINGS = List.of("", "https://example.com/", "http://10.0.0.1/",
            "http://2130706433/", "PT1H", "PT-1H", "PT2562047788015215H", "P999999999D", "jsonl", "text", "null",
            "\u0000", "\uFEFF", "\uD800", "é", "𝕏", "a\"b\\c", "\r\n");
    private static final List<String> NUMBERS = List.of("0", "-0", "1", "-1", "2147483648", "9223372036854775808",
            "1e308", "1e999999", "-1e-999999", "0.5", "1" + "0".repeat(500), "3.4028236e38");

    private final Random random;

    HostileJson(long seed) {
        this.random = new Random(seed);
    }

    /** The next document, as the bytes a client would send. */
    byte[] next() {
        StringBuilder out = new StringBuilder();
        if (random.nextInt(4) == 0) {
            value(out, 0);
        } else {
            object(out, 0);
        }
        byte[] bytes = out.toString().getBytes(StandardCharsets.UTF_8);
        return switch (random.nextInt(10)) {
            case 0 -> java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length + 1)); // cut short
            case 1 -> {
                byte[] broken = bytes.clone();
                broken[random.nextInt(broken.length)] = (byte) (0x80 + random.nextInt(0x80)); // not UTF-8
                yield broken;
            }
            case 2 -> ("[".repeat(2000 + random.nextInt(3000)) + "]".repeat(random.nextInt(2)))
                    .getBytes(StandardCharsets.UTF_8); // deeper than any parser should follow
            default -> bytes;
        };
    }

    /**
     * Message bodies no queue consumer should choke on: the fixture {@code hostile/garbage-message-bodies.txt} (one a
     * line), the empty and the missing body, a document nested far deeper than Jackson's limit, and
     * {@code randomCount} documents from a generator seeded with {@code seed}.
     */
    static List<String> garbageMessages(int randomCount, long seed) {
        List<String> bodies = new java.util.ArrayList<>();
        try (var in = HostileJson.class.getResourceAsStream("/hostile/garbage-message-bodies.txt")) {
            new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().forEach(bodies::add);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        bodies.add("");
        bodies.add(null);
        bodies.add("{\"urls\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}");
        HostileJson random = new HostileJson(seed);
        for (int i = 0; i < randomCount; i++) {
            bodies.add(random.nextText());
        }
        return bodies;
    }

    /** The next document as text, for places that carry strings (SQS bodies). */
    String nextText() {
        return new String(next(), StandardCharsets.UTF_8);
    }

    private void object(StringBuilder out, int depth) {
        out.append('{');
        int fields = random.nextInt(5);
        for (int i = 0; i < fields; i++) {
            if (i > 0) {
                out.append(',');
            }
            string(out, FIELDS.get(random.nextInt(FIELDS.size())));
            out.append(':');
            value(out, depth + 1);
        }
        out.append('}');
    }

    private void value(StringBuilder out, int depth) {
        switch (depth > 6 ? random.nextInt(4) : random.nextInt(6)) {
            case 0 -> out.append(random.nextBoolean() ? "null" : random.nextBoolean() ? "true" : "false");
            case 1 -> out.append(NUMBERS.get(random.nextInt(NUMBERS.size())));
            case 2, 3 -> string(out, random.nextInt(20) == 0 ? "x".repeat(100_000)
                    : STRINGS.get(random.nextInt(STRINGS.size())));
            case 4 -> {
                out.append('[');
                int items = random.nextInt(4);
                for (int i = 0; i < items; i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    value(out, depth + 1);
                }
                out.append(']');
            }
            default -> object(out, depth);
        }
    }

    private static void string(StringBuilder out, String text) {
        out.append('"');
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
