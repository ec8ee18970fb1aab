package io.spiderling.core.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.robots.RobotsFetchOutcome.Response;
import io.spiderling.core.robots.RobotsPolicy.Settings;
import io.spiderling.core.url.RequestUrl;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/**
 * Google's robots.txt test suite (robots_test.cc of google/robotstxt, the reference parser of RFC 9309) run through
 * Spiderling's own decision path: a policy configured with the row's agent, the row's robots.txt as a fetched 200
 * response, and {@link RobotsPolicy#decide} on the request URL Spiderling would send for the row's URL. A row passes
 * when the decision is Google's. Every row that does not is on the deliberate list with its reason, and no row on
 * that list passes, so the list says exactly where and why Spiderling differs.
 */
class GoogleRobotsSuiteTest {

    private static final String CASES = "/robots/google-robots-cases.csv";
    private static final String DELIBERATE = "/robots/google-robots-deliberate.csv";
    private static final int CHECKS_IN_ROBOTS_TEST_CC = 141;
    private static final Instant T0 = Instant.parse("2026-11-24T08:00:00Z");
    /** Google's matcher reads the empty URL as the path {@code /}; Spiderling only sends absolute URLs. */
    private static final String EMPTY_URL_AS_SENT = "http://foo.bar/";
    private static final Pattern REPEAT = Pattern.compile("\\{(.)\\*(\\d+)}");
    private static final Map<String, String> DELIBERATE_REASONS = deliberateReasons();
    private static final Map<String, Boolean> OUTCOMES = new ConcurrentHashMap<>();

    @ParameterizedTest(name = "{1}: {3} {4} -> {5}")
    @CsvFileSource(resources = CASES, numLinesToSkip = 1)
    void decide_whenGoogleCheck_expectGoogleDecisionUnlessDeliberate(String test, String id, String robots,
            String agent, String url, String expected) {
        boolean passes = decidesAsGoogle(robots, agent, url, switch (expected) {
            case "allowed" -> true;
            case "disallowed" -> false;
            default -> throw new IllegalArgumentException(id + ": unknown decision " + expected);
        });
        OUTCOMES.put(id, passes);

        String reason = DELIBERATE_REASONS.get(id);
        if (reason == null) {
            assertTrue(passes, test + " " + id + ": not " + expected + ", and not on the deliberate list");
        } else {
            assertFalse(passes, id + " decides as Google now: take it off the deliberate list (" + reason + ")");
        }
    }

    @Test
    void cases_whenCounted_expectEveryCheckOfRobotsTestCcOnce() {
        List<String> ids = caseIds();

        assertEquals(CHECKS_IN_ROBOTS_TEST_CC, ids.size());
        assertEquals(ids.size(), Set.copyOf(ids).size(), "case ids are unique");
    }

    @Test
    void deliberateList_whenRead_expectKnownCasesWithReasons() {
        Set<String> cases = Set.copyOf(caseIds());

        DELIBERATE_REASONS.forEach((id, reason) -> {
            assertTrue(cases.contains(id), id + " is on the deliberate list but not in the suite");
            assertFalse(reason.isBlank(), id + " needs a reason");
        });
    }

    @AfterAll
    static void printCounts() {
        long passed = OUTCOMES.values().stream().filter(p -> p).count();
        long deliberate = OUTCOMES.entrySet().stream()
                .filter(e -> !e.getValue() && DELIBERATE_REASONS.containsKey(e.getKey())).count();
        long failing = OUTCOMES.size() - passed - deliberate;
        System.out.println("google robots_test.cc: " + OUTCOMES.size() + " checks, " + passed + " passed, "
                + deliberate + " deliberate" + (failing == 0 ? "" : ", " + failing + " FAILING"));
    }

    /** The request URL Spiderling sends for {@code url}: what the URL Standard makes of it, as a browser sends it. */
    static RequestUrl requestUrlOf(String url) {
        return RequestUrl.from(url);
    }

    private static boolean decidesAsGoogle(String robots, String agent, String url, boolean allowedByGoogle) {
        Settings settings;
        try {
            settings = Settings.DEFAULTS.withAgent(agent);
        } catch (IllegalArgumentException notAProductToken) {
            return false; // Spiderling's agent is a product token, so it is never asked about this one
        }
        RobotsPolicy policy = RobotsPolicy.create(settings);
        RequestUrl sent = requestUrlOf(url.isEmpty() ? EMPTY_URL_AS_SENT : expand(url));
        RobotsOrigin origin = RobotsOrigin.of(sent);
        RobotsCacheEntry entry = policy.onFetched(origin, Response.of(200, body(robots)), Optional.empty(), T0, 0);

        RobotsVerdict verdict = policy.decide(Optional.of(entry), sent, T0);

        return verdict instanceof RobotsVerdict.Allowed == allowedByGoogle;
    }

    /** A fixture's text, or a body written inline. */
    private static String body(String robots) {
        return robots.endsWith(".txt") ? resource("/robots/" + robots) : expand(robots.replace("\\n", "\n"));
    }

    /** {@code {c*N}} becomes the character {@code c} {@code N} times. */
    private static String expand(String text) {
        Matcher repeat = REPEAT.matcher(text);
        return repeat.replaceAll(m -> Matcher.quoteReplacement(m.group(1).repeat(Integer.parseInt(m.group(2)))));
    }

    private static List<String> caseIds() {
        return rows(CASES).stream().map(row -> row.split(",", 3)[1]).toList();
    }

    private static Map<String, String> deliberateReasons() {
        Map<String, String> reasons = new HashMap<>();
        for (String row : rows(DELIBERATE)) {
            String[] columns = row.split(",", 2);
            if (reasons.put(columns[0], columns.length < 2 ? "" : columns[1].strip()) != null) {
                throw new IllegalStateException(columns[0] + " is twice on the deliberate list");
            }
        }
        return Map.copyOf(reasons);
    }

    /** The data rows of a table: neither comments nor the header. */
    private static List<String> rows(String table) {
        List<String> lines = resource(table).lines().filter(line -> !line.isBlank() && !line.startsWith("#"))
                .collect(Collectors.toList());
        return lines.subList(1, lines.size());
    }

    private static String resource(String name) {
        try (InputStream in = GoogleRobotsSuiteTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
