package io.spiderling.core.robots;

import java.util.Locale;
import java.util.OptionalInt;
import java.util.function.Predicate;

/**
 * Finds the line of a robots.txt file that a parsed rule came from, so that a refusal can name it. crawler-commons
 * keeps no line numbers; this reads the text again, only when a URL is refused, and only far enough to tell which
 * group a line is in. It decides nothing: the rule was chosen by {@link RobotsRules}.
 */
final class RuleLines {

    private RuleLines() {}

    /**
     * The number (from 1) of the first {@code Allow}/{@code Disallow} line whose value {@code spells} the rule, in a
     * group naming {@code agent}; else in a {@code *} group; else in any group. Empty when no line does.
     */
    static OptionalInt find(String text, String agent, boolean allow, Predicate<String> spells) {
        int ownGroup = -1;
        int starGroup = -1;
        int anyGroup = -1;
        boolean own = false;
        boolean star = false;
        boolean inRules = false;
        String[] lines = text.split("\r\n|\r|\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int comment = line.indexOf('#');
            if (comment >= 0) {
                line = line.substring(0, comment);
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String field = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).strip();
            if (field.equals("user-agent")) {
                if (inRules) {
                    own = false;
                    star = false;
                    inRules = false;
                }
                own |= value.equalsIgnoreCase(agent);
                star |= value.equals("*");
                continue;
            }
            if (!field.equals(allow ? "allow" : "disallow")) {
                inRules |= field.equals("allow") || field.equals("disallow");
                continue;
            }
            inRules = true;
            if (value.isEmpty() || !spells.test(value)) {
                continue;
            }
            int number = i + 1;
            if (own && ownGroup < 0) {
                ownGroup = number;
            } else if (star && starGroup < 0) {
                starGroup = number;
            } else if (anyGroup < 0) {
                anyGroup = number;
            }
        }
        for (int number : new int[] {ownGroup, starGroup, anyGroup}) {
            if (number > 0) {
                return OptionalInt.of(number);
            }
        }
        return OptionalInt.empty();
    }
}
