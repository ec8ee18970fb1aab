package io.spiderling.core.robots;

import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRules.RobotRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The rules crawler-commons parsed for our agent, matched by RFC 9309 against the request-target in time linear in
 * its length.
 *
 * <p>The target is the path and query of the request URL exactly as sent ({@code RequestUrl#target()}), not as
 * {@code java.net.URI} or {@code java.net.URL} would read it: they refuse or re-encode characters a browser sends raw.
 * It is compared with the patterns in one percent-encoded form ({@link Escaping}), applied to both sides.
 *
 * <p>crawler-commons parses (groups, Crawl-delay, a first escaping of the patterns); its matching is replaced, for
 * two reasons found by {@code RobotsPolicyPropertyTest}:
 * <ul>
 *   <li>It matches each literal part of a wildcard pattern where it first occurs, which is right except for the last
 *       part of a pattern ending in {@code $}: {@code /*a$} did not match {@code /aa} (it took the first {@code a},
 *       then found the path not at its end), so {@code Disallow: /*.pdf$} let {@code /x.pdf.pdf} through, and
 *       {@code Disallow: /*}{@code /index.htm} did not cover the directory {@code /a/a/}. Here the last part of an
 *       anchored pattern must end the path.
 *   <li>It compares a part at every position of the path, so one rule cost up to path length × pattern length steps:
 *       a 500 KiB file of 500 wildcard rules of 1,000 characters took over a second to decide one 2,000-character
 *       URL, on every URL of the site. Here parts are found with Knuth-Morris-Pratt, so a rule costs at most about
 *       four steps per character of the path plus two per character of the pattern.
 * </ul>
 * The number of rules is not capped: RFC 9309 section 2.5 requires at least 500 KiB of the file to be parsed, and every
 * rule in it honoured. 500 KiB holds at most about 64,000 rules, so one decision is bounded by 64,000 × 8 × the
 * path's length (at most {@code UrlNormalizer.MAX_LENGTH}) plus 4 × 500 Ki steps, and real files have a few thousand rules
 * at most, almost all of which fail on their first characters.
 */
final class RobotsRules {

    private static final String ROBOTS_PATH = "/robots.txt";
    private static final String INDEX_PAGE = "index.htm";

    private final boolean allowAll;
    private final boolean allowNone;
    private final long crawlDelayMillis;
    private final List<Rule> rules;
    /** The line each refusing rule was found on, filled only as refusals need it. */
    private final Map<Integer, OptionalInt> lines = new ConcurrentHashMap<>();

    /** Keeps the patterns only, split at their stars: as much memory as crawler-commons' rules, which are not kept. */
    RobotsRules(SimpleRobotRules parsed) {
        this.allowAll = parsed.isAllowAll();
        this.allowNone = parsed.isAllowNone();
        this.crawlDelayMillis = parsed.getCrawlDelay();
        List<Rule> compiled = new ArrayList<>(parsed.getRobotRules().size());
        for (RobotRule rule : parsed.getRobotRules()) {
            String pattern = Escaping.pattern(rule.getPrefix());
            compiled.add(new Rule(rule.isAllow(), Pattern.of(pattern), indexFallback(pattern)));
        }
        this.rules = List.copyOf(compiled);
    }

    /** Counts matching steps, so that tests can bound the work of a decision without timing it. */
    static final class Work {
        private long steps;

        long steps() {
            return steps;
        }
    }

    /** The Crawl-delay asked of our agent in milliseconds, or a negative number when none is. */
    long crawlDelayMillis() {
        return crawlDelayMillis;
    }

    int size() {
        return rules.size();
    }

    /** @param target the request-target as it is sent ({@code RequestUrl#target()}): path and query as written */
    boolean isAllowed(String target) {
        return isAllowed(target, new Work());
    }

    /**
     * As crawler-commons decides: everything is allowed or nothing is when the file said so (a 4xx, say, or a
     * parse-level refusal), {@code /robots.txt} itself always is, and otherwise the longest matching pattern wins,
     * Allow on a tie. A pattern ending in {@code index.htm} or {@code index.html} also matches its directory, as
     * crawler-commons means it to.
     */
    boolean isAllowed(String target, Work work) {
        return decide(target, work).allowed();
    }

    /** What decided a target: whether it is allowed, and by which rule ({@link #NO_RULE} when by none). */
    record Decision(boolean allowed, int rule) {}

    /** The rule of a decision that no single rule made: nothing matched, or the file allows all or none. */
    static final int NO_RULE = -1;

    /** As {@link #isAllowed(String, Work)}, with the rule that decided. */
    Decision decide(String target, Work work) {
        if (allowNone) {
            return new Decision(false, NO_RULE);
        }
        if (allowAll) {
            return new Decision(true, NO_RULE);
        }
        String path = Escaping.target(target);
        if (path.equals(ROBOTS_PATH)) {
            return new Decision(true, NO_RULE);
        }
        int best = -1;
        int decider = NO_RULE;
        for (int i = 0; i < rules.size(); i++) {
            Rule rule = rules.get(i);
            int length = rule.pattern().matchLength(path, work);
            if (length < 0 && rule.indexFallback() != null) {
                length = rule.indexFallback().matchLength(path, work);
            }
            if (length > best || length == best && length >= 0 && rule.allow() && !rules.get(decider).allow()) {
                best = length;
                decider = i;
            }
        }
        return new Decision(decider == NO_RULE || rules.get(decider).allow(), decider);
    }

    /** The rule at {@code index} as a line of robots.txt would write it, e.g. {@code Disallow: /private/*.pdf$}. */
    String describe(int index) {
        Rule rule = rules.get(index);
        return (rule.allow() ? "Allow: " : "Disallow: ") + rule.pattern().text();
    }

    /**
     * The number (from 1) of the line of {@code text} that the rule at {@code index} was parsed from, found once per
     * rule and kept. The line is looked for in the groups for {@code agent}, else in the {@code *} groups, else
     * anywhere; empty when no line spells the rule (crawler-commons rewrote it beyond {@link Escaping}'s form).
     */
    OptionalInt lineOf(int index, Supplier<String> text, String agent) {
        return lines.computeIfAbsent(index, i -> RuleLines.find(text.get(), agent, rules.get(i).allow(),
                rules.get(i).pattern()::spells));
    }

    private static Pattern indexFallback(String prefix) {
        if (!prefix.endsWith(INDEX_PAGE) && !prefix.endsWith(INDEX_PAGE + "l")) {
            return null;
        }
        return Pattern.of(prefix.substring(0, prefix.indexOf(INDEX_PAGE)) + "$");
    }

    private record Rule(boolean allow, Pattern pattern, Pattern indexFallback) {}

    /**
     * A pattern split at its {@code *}s: the head must start the path, the middle parts follow in order wherever they
     * first occur (which leaves the most room for the rest), and the tail must follow them, at the end of the path if
     * the pattern ends in {@code $}.
     */
    private record Pattern(int length, String head, List<Part> middle, Part tail, boolean wildcard,
            boolean anchored) {

        static Pattern of(String pattern) {
            boolean anchored = pattern.endsWith("$");
            String body = anchored ? pattern.substring(0, pattern.length() - 1) : pattern;
            String[] literals = body.split("\\*", -1);
            List<Part> middle = new ArrayList<>();
            for (int i = 1; i < literals.length - 1; i++) {
                if (!literals[i].isEmpty()) {
                    middle.add(new Part(literals[i]));
                }
            }
            boolean wildcard = literals.length > 1;
            Part tail = wildcard ? new Part(literals[literals.length - 1]) : null;
            return new Pattern(pattern.length(), literals[0], List.copyOf(middle), tail, wildcard, anchored);
        }

        /** The pattern as written, but for stars that came in pairs, which match as one. */
        String text() {
            StringBuilder text = new StringBuilder(head);
            middle.forEach(part -> text.append('*').append(part.text()));
            if (wildcard) {
                text.append('*').append(tail.text());
            }
            return anchored ? text.append('$').toString() : text.toString();
        }

        /** Whether the value of a robots.txt line is this pattern, in {@link Escaping}'s form. */
        boolean spells(String value) {
            return equals(of(Escaping.pattern(value)));
        }

        /** The pattern's length when it matches the path, else -1. */
        int matchLength(String path, Work work) {
            int headLength = head.length();
            work.steps += Math.min(headLength, path.length()) + 1;
            if (!path.startsWith(head)) {
                return -1;
            }
            if (!wildcard) {
                return !anchored || path.length() == headLength ? length : -1;
            }
            int at = headLength;
            for (Part part : middle) {
                at = part.find(path, at, work);
                if (at < 0) {
                    return -1;
                }
            }
            if (anchored) {
                int start = path.length() - tail.text().length();
                work.steps += Math.min(tail.text().length(), path.length()) + 1;
                return start >= at && path.startsWith(tail.text(), start) ? length : -1;
            }
            return tail.text().isEmpty() || tail.find(path, at, work) >= 0 ? length : -1;
        }
    }

    /**
     * A literal part of a pattern. Its Knuth-Morris-Pratt table is built when the part is searched for, which happens
     * only once the pattern's head has matched: kept, the tables would take four bytes per character of every pattern
     * in every cached parse.
     */
    private record Part(String text) {

        /** Where the part ends at its first occurrence in {@code path} from {@code from}, or -1. */
        int find(String path, int from, Work work) {
            if (path.length() - from < text.length()) {
                work.steps++;
                return -1;
            }
            int[] failure = failureTable(work);
            int matched = 0;
            for (int i = from; i < path.length(); i++) {
                while (matched > 0 && path.charAt(i) != text.charAt(matched)) {
                    matched = failure[matched - 1];
                    work.steps++;
                }
                work.steps++;
                if (path.charAt(i) == text.charAt(matched)) {
                    matched++;
                    if (matched == text.length()) {
                        return i + 1;
                    }
                }
            }
            return -1;
        }

        private int[] failureTable(Work work) {
            int[] failure = new int[text.length()];
            for (int i = 1, k = 0; i < text.length(); i++) {
                while (k > 0 && text.charAt(i) != text.charAt(k)) {
                    k = failure[k - 1];
                    work.steps++;
                }
                work.steps++;
                if (text.charAt(i) == text.charAt(k)) {
                    k++;
                }
                failure[i] = k;
            }
            return failure;
        }
    }
}
