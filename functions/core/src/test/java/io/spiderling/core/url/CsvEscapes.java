package io.spiderling.core.url;

/** The escapes of the URL case tables, so that control characters are visible in them. */
final class CsvEscapes {

    private CsvEscapes() {}

    /**
     * Decodes {@code \t}, {@code \n}, {@code \r}, {@code \}{@code uXXXX} and {@code \\} (a backslash); any other
     * backslash is a mistake in the table. Null stays null.
     */
    static String unescape(String text) {
        if (text == null || text.indexOf('\\') < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char next = i + 1 < text.length() ? text.charAt(++i) : ' ';
            switch (next) {
                case 't' -> out.append('\t');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case '\\' -> out.append('\\');
                case 'u' -> {
                    out.append((char) Integer.parseInt(text.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> throw new IllegalArgumentException("unknown escape \\" + next + " in " + text);
            }
        }
        return out.toString();
    }
}
