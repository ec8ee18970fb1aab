package io.spiderling.local.cli;

/** URLs as a screen shows them: whole up to a width, then their start and end around an ellipsis. Files keep them whole. */
final class UrlText {

    /** The width a URL may take on a summary line. */
    static final int SCREEN_WIDTH = 100;

    private UrlText() {}

    /** {@code text} if it fits in {@code width} characters, else its first and last parts joined by {@code …}. */
    static String shorten(String text, int width) {
        if (text == null) {
            return "(none)";
        }
        String oneLine = text.replaceAll("\\p{Cntrl}", "?");
        if (oneLine.codePointCount(0, oneLine.length()) <= width) {
            return oneLine;
        }
        int[] points = oneLine.codePoints().toArray();
        int tail = Math.max(8, (width - 1) / 3);
        int head = width - 1 - tail;
        return new String(points, 0, head) + "…" + new String(points, points.length - tail, tail);
    }

    /** {@code text} if it fits in {@code width} characters, else as much of its start as fits with {@code …}. */
    static String cut(String text, int width) {
        String oneLine = text.replaceAll("\\p{Cntrl}", "?");
        int[] points = oneLine.codePoints().toArray();
        return points.length <= width ? oneLine : new String(points, 0, Math.max(0, width - 1)) + "…";
    }

    static String shorten(String text) {
        return shorten(text, SCREEN_WIDTH);
    }
}
