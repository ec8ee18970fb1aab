package io.spiderling.core.politeness;

import io.spiderling.core.url.NormalizedUrl;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** A site key as an operator's file spells it (the rate overrides, the opt-out list), checked the same way in both. */
final class SiteKeyField {

    /** A host name or address as a site key spells it; anything else (a port, a path, a scheme) is a mistake. */
    private static final Pattern HOST = Pattern.compile("[a-z0-9._-]+|\\[[0-9a-f:.]+]");

    private SiteKeyField() {}

    /**
     * The lower-case key {@code field} names. It must be a site key as {@link io.spiderling.core.url.SiteKey} derives
     * it ({@code example.com}, not {@code www.example.com}), because any other key would silently never match.
     *
     * @throws IllegalArgumentException naming {@code file} and {@code line}
     */
    static String read(String file, int line, String field) {
        try {
            return key(field);
        } catch (IllegalArgumentException e) {
            throw bad(file, line, e.getMessage());
        }
    }

    /** {@link #read} without a file: for a site key given alone, as in the API's {@code /admin/opt-outs/{site}}. */
    static String key(String field) {
        String key = field.toLowerCase(Locale.ROOT);
        // URLs may have empty labels (the WHATWG URL Standard allows "exa..mple.com"), but no site is named so
        if (!HOST.matcher(key).matches() || key.startsWith(".") || key.endsWith(".") || key.contains("..")) {
            throw new IllegalArgumentException("'" + field + "' is not a host name or address");
        }
        String derived;
        try {
            derived = NormalizedUrl.parse("http://" + key + "/").siteKey().value();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + field + "' is not a host name or address");
        }
        if (!derived.equals(key)) {
            throw new IllegalArgumentException("'" + field + "' is not a site key; its site key is '" + derived
                    + "'");
        }
        return key;
    }

    /** A line of an operator's file with something on it: its number (1-based) and its text without the comment. */
    record Line(int number, String content) {}

    /** The lines of {@code text} that hold more than blanks and a {@code #} comment. */
    static List<Line> contentLines(String text) {
        List<Line> lines = new ArrayList<>();
        String[] raw = text.split("\\R", -1);
        for (int i = 0; i < raw.length; i++) {
            int comment = raw[i].indexOf('#');
            String content = (comment < 0 ? raw[i] : raw[i].substring(0, comment)).strip();
            if (!content.isEmpty()) {
                lines.add(new Line(i + 1, content));
            }
        }
        return lines;
    }

    static IllegalArgumentException bad(String file, int line, String why) {
        return new IllegalArgumentException(file + ", line " + line + ": " + why);
    }
}
