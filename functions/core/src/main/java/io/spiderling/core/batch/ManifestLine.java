package io.spiderling.core.batch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.spiderling.core.content.Hashing;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Reads the URL out of one line of an uploaded manifest, or says why the line holds none. */
public final class ManifestLine {

    private static final JsonFactory JSON = JsonFactory.builder().build();
    /** Enough of a bad line to recognise it in the batch's item list. */
    private static final int MAX_SHOWN = 200;

    private ManifestLine() {}

    public sealed interface Parsed {
        /** A URL as written, not yet normalized. */
        record Url(String raw) implements Parsed {}

        /** An empty or all-blank line: skipped, not counted. */
        record Blank() implements Parsed {}

        /** A line that holds no URL; {@code shown} is its start, for the client to find it. */
        record Invalid(String shown, String reason) implements Parsed {}
    }

    /**
     * The key an invalid line's item is stored under, in place of a URL hash: unique per line, hex like one. Stores
     * key the item by it, so it lives here rather than in the stage that records such lines.
     */
    public static String invalidItemKey(long position) {
        return Hashing.sha256Hex("line:" + position);
    }

    public static Parsed parse(UploadFormat format, ManifestChunks.Line line) {
        String text = line.text().strip();
        if (line.tooLong()) {
            return new Parsed.Invalid(shown(text), "line longer than " + ManifestChunks.MAX_LINE_BYTES + " bytes");
        }
        if (text.isEmpty()) {
            return new Parsed.Blank();
        }
        return switch (format) {
            case TEXT -> new Parsed.Url(text);
            case JSONL -> json(text);
        };
    }

    private static Parsed json(String text) {
        try (JsonParser parser = JSON.createParser(text)) {
            JsonToken first = parser.nextToken();
            String url;
            if (first == JsonToken.VALUE_STRING) {
                url = parser.getText();
            } else if (first == JsonToken.START_OBJECT) {
                url = null;
                for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
                    String field = parser.currentName();
                    JsonToken value = parser.nextToken();
                    if (!"url".equals(field)) {
                        return new Parsed.Invalid(shown(text), "unknown field \"" + field + "\"");
                    }
                    if (value != JsonToken.VALUE_STRING) {
                        return new Parsed.Invalid(shown(text), "\"url\" must be a string");
                    }
                    url = parser.getText();
                }
                if (url == null) {
                    return new Parsed.Invalid(shown(text), "missing field \"url\"");
                }
            } else {
                return new Parsed.Invalid(shown(text), "expected a JSON string or an object with a \"url\" field");
            }
            if (parser.nextToken() != null) {
                return new Parsed.Invalid(shown(text), "more than one JSON value on the line");
            }
            return new Parsed.Url(url);
        } catch (JsonProcessingException e) {
            return new Parsed.Invalid(shown(text), "not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("reading a string cannot fail", e);
        }
    }

    private static String shown(String text) {
        return text.length() <= MAX_SHOWN ? text : text.substring(0, MAX_SHOWN) + "…";
    }
}
