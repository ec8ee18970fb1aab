package io.spiderling.core.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.robots.RobotsFetchOutcome.Response;
import io.spiderling.core.url.RequestUrl;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import io.spiderling.core.testing.PropertySeeds;
import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.UrlNormalizer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Assume;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Properties of robots.txt matching and of the work a hostile robots.txt can cause. Matching is checked against a
 * reference written from RFC 9309 section 2.2.2 (a regular expression per rule, the longest matching rule wins, Allow
 * wins a tie); work is checked by counting, never by timing. Failures found here are kept as rows of
 * {@code robots/rules-cases.csv}.
 */
class RobotsPolicyPropertyTest {

    private static final Instant T0 = Instant.parse("2026-11-24T08:00:00Z");
    private static final RobotsOrigin ORIGIN = RobotsOrigin.of("https://example.com/");

    private final RobotsPolicy policy = RobotsPolicy.create();

    /** One rule line of a generated file. */
    record Rule(boolean allow, String pattern) {
        String line() {
            return (allow ? "Allow: " : "Disallow: ") + pattern;
        }
    }

    @Property(tries = 1000, seed = PropertySeeds.FIXED)
    void decide_whenSmallRuleSet_agreesWithRfc9309Reference(@ForAll("ruleSets") List<Rule> rules,
            @ForAll("paths") String path) {
        StringBuilder text = new StringBuilder("User-agent: *\n");
        rules.forEach(rule -> text.append(rule.line()).append('\n'));
        RobotsCacheEntry entry = policy.onFetched(ORIGIN, ok(text.toString()), Optional.empty(), T0, 0);

        RequestUrl sent = RequestUrl.from("https://example.com" + path);
        RobotsVerdict verdict = policy.decide(Optional.of(entry), sent, T0);

        // Decided on what is sent: the path with its dot segments resolved, as a browser sends it
        boolean allowed = reference(rules, sent.target());
        assertEquals(allowed, verdict instanceof RobotsVerdict.Allowed, text + "for " + path);
    }

    @Property(tries = 300, seed = PropertySeeds.FIXED)
    void decide_whenSameRulesWithOtherLineBreaksOrBom_decidesTheSame(@ForAll("ruleSets") List<Rule> rules,
            @ForAll("paths") String path) {
        String url = "https://example.com" + path;
        RobotsVerdict expected = null;
        for (String prefix : List.of("", "\uFEFF")) {
            for (String newline : List.of("\n", "\r\n", "\r")) {
                StringBuilder text = new StringBuilder(prefix).append("User-agent: *").append(newline);
                rules.forEach(rule -> text.append(rule.line()).append(newline));
                RobotsCacheEntry entry = policy.onFetched(ORIGIN, ok(text.toString()), Optional.empty(), T0, 0);

                RobotsVerdict verdict = policy.decide(Optional.of(entry), RequestUrl.from(url), T0);

                if (expected == null) {
                    expected = verdict;
                }
                assertEquals(expected, verdict, text.toString().replace("\r", "<CR>") + " for " + path);
            }
        }
    }

    /**
     * Where crawler-commons' own matching is right (no pattern ends in {@code $}), {@link RobotsRules} decides as it
     * does, on the normalized URLs the policy is asked about: the path is taken and escaped the same way.
     */
    @Property(tries = 1000, seed = PropertySeeds.FIXED)
    void isAllowed_whenNoPatternIsAnchored_agreesWithCrawlerCommons(@ForAll("unanchoredRuleSets") List<Rule> rules,
            @ForAll("rawPaths") String rawPath) {
        RequestUrl sent = UrlNormalizer.create().normalize("https://example.com" + rawPath)
                instanceof NormalizationResult.Accepted accepted ? accepted.request() : null;
        Assume.that(sent != null);
        String url = sent.value();
        StringBuilder text = new StringBuilder("User-agent: *\n");
        rules.forEach(rule -> text.append(rule.line()).append('\n'));
        SimpleRobotRulesParser parser = new SimpleRobotRulesParser(Long.MAX_VALUE, 0);
        parser.setExactUserAgentMatching(true);
        SimpleRobotRules parsed = parser.parseContent(ORIGIN.robotsUrl(),
                text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), "text/plain", List.of("spiderling"));

        assertEquals(parsed.isAllowed(url), new RobotsRules(parsed).isAllowed(sent.target()), text + "for " + url);
    }

    @Provide
    Arbitrary<List<Rule>> unanchoredRuleSets() {
        Arbitrary<String> pattern = Arbitraries.strings()
                .withChars("ab/.?=&*%2Ff41é~_-+;:@ ").ofMaxLength(10).map(p -> "/" + p)
                .filter(p -> !p.endsWith("$"))
                // a pattern ending in index.htm(l) also matches its directory, as if it were "dir/$"; crawler-commons
                // gets that wrong when the directory has a star (robots/index-page-wildcard-directory.txt)
                .flatMap(p -> p.contains("*") ? Arbitraries.just(p)
                        : Arbitraries.of(p, p, p + "index.html", p + "/index.htm"));
        return Combinators.combine(Arbitraries.of(true, false), pattern).as(Rule::new).list().ofMinSize(1)
                .ofMaxSize(5);
    }

    @Provide
    Arbitrary<String> rawPaths() {
        return Arbitraries.strings().withChars("ab/.?=&%2Ff41é~_-+;:@ *$").ofMaxLength(14).map(p -> "/" + p)
                .flatMap(p -> Arbitraries.of(p, p, p + "/", p + "/index.html"));
    }

    /** RFC 9309 section 2.2.2: the most specific (longest) matching rule wins; Allow wins a tie; no match allows. */
    private static boolean reference(List<Rule> rules, String path) {
        int best = -1;
        boolean allowed = true;
        for (Rule rule : rules) {
            if (!toRegex(rule.pattern()).matcher(path).lookingAt()) {
                continue;
            }
            int length = rule.pattern().length();
            if (length > best || (length == best && rule.allow())) {
                allowed = length > best ? rule.allow() : allowed || rule.allow();
                best = length;
            }
        }
        return allowed;
    }

    private static Pattern toRegex(String pattern) {
        boolean anchored = pattern.endsWith("$");
        String body = anchored ? pattern.substring(0, pattern.length() - 1) : pattern;
        StringBuilder regex = new StringBuilder();
        for (String literal : body.split("\\*", -1)) {
            regex.append(Pattern.quote(literal)).append(".*");
        }
        regex.setLength(regex.length() - 2); // the last ".*" stands for no star
        return Pattern.compile(regex + (anchored ? "$" : ""), Pattern.DOTALL);
    }

    @Provide
    Arbitrary<List<Rule>> ruleSets() {
        Arbitrary<String> pattern = Arbitraries.strings().withChars("ab/.**").ofMinLength(0).ofMaxLength(7)
                .map(p -> "/" + p)
                .flatMap(p -> Arbitraries.of(p, p, p + "$"));
        return Combinators.combine(Arbitraries.of(true, false), pattern).as(Rule::new).list().ofMinSize(1)
                .ofMaxSize(5);
    }

    @Provide
    Arbitrary<String> paths() {
        return Arbitraries.strings().withChars("ab/.").ofMaxLength(10).map(p -> "/" + p);
    }

    /** How a hostile file is made: one kind of line, repeated to the size, with a newline style and maybe a BOM. */
    enum Hostility {
        TINY_RULES, LONG_LINE, DEEP_WILDCARDS, LONG_WILDCARD_PARTS, MANY_AGENT_GROUPS, GARBAGE_BYTES, MIXED
    }

    /** One try: a file of each kind, made from these alone, so that shrinking and reruns see the same bytes. */
    record Recipe(int size, String newline, byte[] bom, long salt) {
        @Override
        public String toString() {
            return size + " bytes, newline " + newline.replace("\r", "CR").replace("\n", "LF") + ", BOM "
                    + bom.length + ", salt " + salt;
        }
    }

    /**
     * Bounds on what a hostile robots.txt costs: the text kept is at most the parse limit and fits the DynamoDB item
     * with room for the other attributes; the rules kept grow at most linearly with the bytes kept; one decision
     * takes at most a fixed number of steps per rule and character of the path, plus a fixed number per byte of the
     * patterns: linear, where matching each part at every position was quadratic.
     */
    @Property(tries = 2, seed = PropertySeeds.FIXED, edgeCases = EdgeCasesMode.NONE)
    void onFetched_whenHostileFile_keepsBoundedTextRulesAndWork(@ForAll("recipes") Recipe recipe) {
        for (Hostility kind : Hostility.values()) {
            check(kind, recipe);
        }
    }

    private void check(Hostility kind, Recipe recipe) {
        byte[] body = build(kind, recipe);
        String file = kind + " " + recipe;
        RobotsPolicy.Settings settings = policy.settings();

        RobotsCacheEntry entry = policy.onFetched(ORIGIN, new Response(200, body, Optional.empty(), 0),
                Optional.empty(), T0, 0);

        byte[] kept = RobotsText.gunzip(entry.robotsGzip());
        assertTrue(kept.length <= settings.maxBodyBytes(), file + ": kept " + kept.length);
        assertTrue(entry.robotsGzip().length <= settings.maxStoredBytes(),
                file + ": stored " + entry.robotsGzip().length);
        int otherAttributes = 1024 + 2 * ORIGIN.value().length();
        assertTrue(entry.robotsGzip().length + otherAttributes < RobotsPolicy.DYNAMODB_ITEM_LIMIT, file.toString());
        RobotsRules rules = policy.rules(entry);
        assertTrue(rules.size() <= kept.length / MIN_RULE_BYTES, file + ": " + rules.size() + " rules");
        for (String path : List.of("/", "/a", "/" + "a".repeat(1000) + "b", "/" + "ab/".repeat(680) + "?q=a")) {
            String url = "https://example.com" + path;
            RobotsRules.Work work = new RobotsRules.Work();

            rules.isAllowed(RequestUrl.from(url).target(), work);
            policy.decide(Optional.of(entry), RequestUrl.from(url), T0); // never throws

            long bound = (long) rules.size() * 2 * (4L * url.length() + 3) + 4L * kept.length;
            assertTrue(work.steps() <= bound,
                    file + ": " + work.steps() + " steps > " + bound + " for a path of " + path.length());
        }
    }

    /** "Allow:/" and a line break: no line holds a rule in fewer bytes. */
    private static final int MIN_RULE_BYTES = 8;

    @Provide
    Arbitrary<Recipe> recipes() {
        Arbitrary<byte[]> bom = Arbitraries.of(new byte[0], new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                new byte[] {(byte) 0xFE, (byte) 0xFF}, new byte[] {(byte) 0xFF, (byte) 0xFE});
        return Combinators.combine(Arbitraries.integers().between(400 * 1024, 640 * 1024),
                Arbitraries.of("\n", "\r", "\r\n"), bom, Arbitraries.longs()).as(Recipe::new);
    }

    /** The file's bytes: deterministic in its recipe, so that shrinking and reruns see the same file. */
    private static byte[] build(Hostility fileKind, Recipe file) {
        java.util.Random random = new java.util.Random(file.salt());
        String nl = file.newline();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(file.size() + 4096);
        out.writeBytes(file.bom());
        out.writeBytes(("User-agent: *" + nl).getBytes(StandardCharsets.UTF_8));
        int i = 0;
        while (out.size() < file.size()) {
            Hostility kind = fileKind == Hostility.MIXED ? Hostility.values()[random.nextInt(6)] : fileKind;
            String line = switch (kind) {
                case TINY_RULES -> (random.nextBoolean() ? "Allow:/" : "Disallow:/") + Integer.toString(i, 36) + nl;
                case LONG_LINE -> "Disallow: /" + "x".repeat(64 * 1024 + random.nextInt(256 * 1024)) + nl;
                case DEEP_WILDCARDS -> "Disallow: /" + "*a".repeat(1 + random.nextInt(20_000)) + "$" + nl;
                case LONG_WILDCARD_PARTS -> "Disallow: /*" + "a".repeat(200 + random.nextInt(1800)) + "b*" + i + nl;
                case MANY_AGENT_GROUPS -> "User-agent: " + (random.nextInt(4) == 0 ? "spiderling" : "bot" + i) + nl
                        + "Disallow: /g" + i + "*x$" + nl;
                default -> garbage(random);
            };
            out.writeBytes(line.getBytes(StandardCharsets.ISO_8859_1));
            i++;
        }
        return out.toByteArray();
    }

    /** Bytes no robots.txt should hold: controls, NULs, broken UTF-8, stray BOMs, half directives. */
    private static String garbage(java.util.Random random) {
        char[] chars = new char[1 + random.nextInt(200)];
        for (int j = 0; j < chars.length; j++) {
            chars[j] = (char) random.nextInt(256);
        }
        return new String(chars) + (random.nextBoolean() ? "Disallow:" : "\u00ef\u00bb\u00bfUser-agent:");
    }

    private static Response ok(String body) {
        return Response.of(200, body);
    }
}
