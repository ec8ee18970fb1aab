package io.spiderling.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.testkit.PolitenessReport.Answer;
import io.spiderling.testkit.PolitenessReport.Exchange;
import io.spiderling.testkit.PolitenessReport.SiteLoad;
import io.spiderling.testkit.PolitenessReport.SiteRules;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.ValueSource;

class PolitenessReportTest {

    private static final String REQUESTS = "/farm/politeness-report-requests.csv";
    private static final LocalDate DAY = LocalDate.parse("2026-11-24");
    private static final Instant NOON = Instant.parse("2026-11-24T12:00:00Z");
    private static final List<SiteRules> SITES = List.of(
            new SiteRules("a", List.of("/robots.txt"), List.of("/private/"), 3, Duration.ofMinutes(10)),
            new SiteRules("b", List.of("/robots.txt", "/robots-moved.txt"), List.of("/hidden/"), 3,
                    Duration.ofMinutes(10)));

    /** Each row of the expected table is one scenario; its requests are the rows of the requests table so named. */
    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/farm/politeness-report-expected.csv", numLinesToSkip = 1)
    void from_whenScenarioOfTheCaseTables_findsExpectedViolationsDuplicatesAndBusiestSecond(String scenario,
            String violations, String duplicates, String maxInAnySecond) throws IOException {
        List<Exchange> log = requests(scenario);
        assertFalse(log.isEmpty(), "no requests for scenario " + scenario);

        PolitenessReport report = PolitenessReport.from(log, SITES);

        assertEquals(list(violations), report.robotsViolations().stream().map(v -> v.host() + " " + v.path() + " "
                + (v.why().startsWith("disallowed") ? "disallowed" : "before")).toList(), scenario);
        assertEquals(list(duplicates), report.duplicates().stream().map(d -> d.host() + " " + d.path()).toList(),
                scenario);
        assertEquals(maxInAnySecond, report.load().values().stream().map(l -> l.host() + "=" + l.maxInAnySecond())
                .collect(Collectors.joining(" ")), scenario);
        assertEquals(report.load().values().stream().filter(l -> l.maxInAnySecond() > 3).toList(),
                report.rateExcesses(), scenario);
    }

    @Test
    void from_whenRequestToUndeclaredSite_throws() {
        List<Exchange> log = List.of(exchange("c", "/robots.txt", NOON, "200"));

        assertThrows(IllegalArgumentException.class, () -> PolitenessReport.from(log, SITES));
    }

    @Test
    void from_whenLogIsOutOfOrder_judgesByArrivalTime() {
        List<Exchange> log = List.of(exchange("a", "/page/1", NOON.plusSeconds(2), "200"),
                exchange("a", "/robots.txt", NOON, "200"));

        assertTrue(PolitenessReport.from(log, SITES).robotsViolations().isEmpty());
    }

    @Test
    void load_whenRequestsSpreadOverTime_reportsCountSpanAndRate() {
        List<Exchange> log = List.of(exchange("a", "/robots.txt", NOON, "200"),
                exchange("a", "/page/1", NOON.plusMillis(500), "200"),
                exchange("a", "/page/2", NOON.plusSeconds(4), "200"));

        SiteLoad a = PolitenessReport.from(log, SITES).load().get("a");
        SiteLoad b = PolitenessReport.from(log, SITES).load().get("b");

        assertEquals(new SiteLoad("a", 3, 2, NOON, 3, NOON, NOON.plusSeconds(4)), a);
        assertEquals(0.5, a.ratePerSecond(), 1e-9);
        assertEquals(new SiteLoad("b", 0, 0, null, 3, null, null), b);
        assertEquals(0, b.ratePerSecond());
    }

    @Test
    void format_whenDuplicateAndExcess_printsEverySiteAndEachFinding() {
        List<Exchange> log = List.of(exchange("a", "/robots.txt", NOON, "200"),
                exchange("a", "/page/1", NOON.plusMillis(100), "200"),
                exchange("a", "/page/1", NOON.plusMillis(200), "200"),
                exchange("a", "/page/2", NOON.plusMillis(300), "200"));

        PolitenessReport report = PolitenessReport.from(log, SITES);
        String text = report.format(Map.of("a", "127.0.0.2 rules"));

        assertFalse(report.clean());
        assertTrue(text.startsWith("robots violations: 0, duplicate fetches: 1, sites over their rate: 1"), text);
        assertTrue(text.contains("127.0.0.2 rules"), text);
        assertTrue(text.contains("OVER (from 2026-11-24T12:00:00Z)"), text);
        assertTrue(text.contains("duplicate: 127.0.0.2 rules /page/1 at 2026-11-24T12:00:00.200Z, already answered 200"
                + " at 2026-11-24T12:00:00.100Z"), text);
        assertTrue(text.lines().anyMatch(line -> line.startsWith("b ")), text);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"200", "301", "503", "none", "stalled 200"})
    void answer_whenPrinted_parsesBack(String text) {
        assertEquals(text, Answer.parse(text).toString());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"200", "204", "301", "304", "404", "410", "403"})
    void isFinal_whenCompleteAnswerAskingAgainWouldRepeat_isTrue(String text) {
        assertTrue(Answer.parse(text).isFinal());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"408", "429", "500", "503", "none", "stalled 200"})
    void isFinal_whenRetryable_isFalse(String text) {
        assertFalse(Answer.parse(text).isFinal());
    }

    private static List<String> list(String joined) {
        return joined == null ? List.of() : List.of(joined.split(";"));
    }

    private static List<Exchange> requests(String scenario) throws IOException {
        List<Exchange> log = new ArrayList<>();
        try (var in = PolitenessReportTest.class.getResourceAsStream(REQUESTS);
                var reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            reader.readLine(); // header
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split(",", -1);
                if (f[0].equals(scenario)) {
                    Instant at = LocalTime.parse(f[1]).atDate(DAY).toInstant(ZoneOffset.UTC);
                    log.add(exchange(f[2], f[3], at, f[4]));
                }
            }
        }
        return log;
    }

    private static Exchange exchange(String host, String path, Instant at, String answer) {
        return new Exchange(new RecordedRequest(host, "GET", path, Map.of(), at), Answer.parse(answer));
    }
}
