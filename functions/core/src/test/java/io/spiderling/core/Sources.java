package io.spiderling.core;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Java source with its comments and literals blanked, for rules that must see what class files cannot. */
final class Sources {

    private Sources() {}

    /**
     * The main source root of the module a test class was compiled in: {@code target/test-classes} sits next to
     * {@code src}, whichever directory the test runs in (the module's under Maven, the project's in an IDE).
     */
    static Path mainRoot(Class<?> testClass) {
        try {
            Path classes = Path.of(testClass.getProtectionDomain().getCodeSource().getLocation().toURI());
            return classes.getParent().getParent().resolve("src/main/java");
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static String code(Path file) throws IOException {
        return code(Files.readString(file));
    }

    /**
     * The code of a source file: comments, string and character literals and text blocks become spaces, so a name
     * mentioned in a Javadoc link or inside a message does not count as a use.
     */
    static String code(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        while (i < source.length()) {
            int end;
            if (source.startsWith("//", i)) {
                end = source.indexOf('\n', i);
                end = end < 0 ? source.length() : end;
            } else if (source.startsWith("/*", i)) {
                end = source.indexOf("*/", i + 2);
                end = end < 0 ? source.length() : end + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                end = closing(source, i + 3, "\"\"\"");
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                end = closing(source, i + 1, String.valueOf(source.charAt(i)));
            } else {
                out.append(source.charAt(i++));
                continue;
            }
            out.append(" ".repeat(end - i));
            i = end;
        }
        return out.toString();
    }

    /** Where the literal that opened before {@code from} ends, past its closing quote; escapes are skipped. */
    private static int closing(String source, int from, String quote) {
        int i = from;
        while (i < source.length() && !source.startsWith(quote, i)) {
            i += source.charAt(i) == '\\' ? 2 : 1;
        }
        return Math.min(source.length(), i + quote.length());
    }
}
