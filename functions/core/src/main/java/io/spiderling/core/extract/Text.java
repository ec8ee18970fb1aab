package io.spiderling.core.extract;

import java.util.regex.Pattern;

/** How every extracted text value is tidied: whitespace collapsed as a reader sees it, and a length cap. */
final class Text {

    private static final Pattern WHITESPACE = Pattern.compile("\\s+", Pattern.UNICODE_CHARACTER_CLASS);

    private Text() {}

    /**
     * Runs of whitespace (no-break spaces and line separators included) become one space, the ends are trimmed, and
     * the result is cut to {@code maxLength} characters without splitting a surrogate pair.
     *
     * @return the text, or {@code null} when there is none or only whitespace
     */
    static String clean(String text, int maxLength) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        String collapsed = WHITESPACE.matcher(text).replaceAll(" ").strip();
        if (collapsed.isEmpty()) {
            return null;
        }
        if (collapsed.length() <= maxLength) {
            return collapsed;
        }
        int end = Character.isHighSurrogate(collapsed.charAt(maxLength - 1)) ? maxLength - 1 : maxLength;
        return collapsed.substring(0, end);
    }

    static boolean startsWithIgnoringCase(String text, String prefix) {
        return text.regionMatches(true, 0, prefix, 0, prefix.length());
    }
}
