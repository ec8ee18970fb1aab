package io.spiderling.core.politeness;

import io.spiderling.core.url.SiteKey;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Sites that asked never to be fetched, from an operator's file: one site key per line, {@code #} starts a comment,
 * blank lines are ignored, keys are compared without regard to case and checked as in {@link RateOverrides} (a key
 * that is not a site key would silently never match). A file that breaks a rule is refused whole, naming the line.
 * A file rather than a configuration value, because the list grows and Lambda caps a function's environment at 4 KB.
 */
public final class OptOut {

    private static final String FILE = "opt-out list";

    private OptOut() {}

    /**
     * A site key given alone (the API's {@code /admin/opt-outs/{site}}), checked as the file's lines are.
     *
     * @throws IllegalArgumentException saying what is wrong with it, e.g. that its site key is another
     */
    public static SiteKey siteKey(String text) {
        return new SiteKey(SiteKeyField.key(Objects.requireNonNull(text, "text").strip()));
    }

    public static Set<SiteKey> parse(String text) {
        Objects.requireNonNull(text, "text");
        Set<SiteKey> sites = new HashSet<>();
        Map<String, Integer> lineOf = new HashMap<>();
        for (SiteKeyField.Line line : SiteKeyField.contentLines(text)) {
            int number = line.number();
            String content = line.content();
            if (content.split("\\s+").length != 1) {
                throw SiteKeyField.bad(FILE, number, "expected one site key, e.g. 'example.com', got '" + content
                        + "'");
            }
            String key = SiteKeyField.read(FILE, number, content);
            Integer earlier = lineOf.putIfAbsent(key, number);
            if (earlier != null) {
                throw SiteKeyField.bad(FILE, number, "site '" + key + "' is already listed on line " + earlier);
            }
            sites.add(new SiteKey(key));
        }
        return Set.copyOf(sites);
    }
}
