package io.spiderling.core.politeness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.fetch.FailureKind;
import io.spiderling.core.fetch.FetchResult;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FetchOutcomeTest {

    @ParameterizedTest(name = "{0} retry-after={1} -> {2}")
    @CsvSource({
            "200, false, OK", "204, false, OK", "301, false, OK", "304, false, OK", "100, false, OK",
            "200, true, OK", "301, true, OK",
            "429, false, THROTTLED", "429, true, THROTTLED",
            // A 5xx is throttling only when it says when to come back; otherwise it is one URL's failure.
            "503, true, THROTTLED", "500, true, THROTTLED", "503, false, SERVER_ERROR",
            "500, false, SERVER_ERROR", "502, false, SERVER_ERROR", "504, false, SERVER_ERROR",
            "599, false, SERVER_ERROR",
            "408, false, TIMEOUT",
            "400, false, CLIENT_ERROR", "401, false, CLIENT_ERROR", "403, false, CLIENT_ERROR",
            "404, false, CLIENT_ERROR", "410, false, CLIENT_ERROR", "451, false, CLIENT_ERROR", "404, true, CLIENT_ERROR",
            "0, false, CLIENT_ERROR", "99, false, CLIENT_ERROR", "600, false, CLIENT_ERROR", "999, false, CLIENT_ERROR",
    })
    void ofStatus_whenStatusAndRetryAfter_givesOutcome(int status, boolean retryAfter, FetchOutcome expected) {
        assertEquals(expected, FetchOutcome.ofStatus(status, retryAfter));
        assertEquals(expected, FetchOutcome.of(FetchResult.Response.builder().status(status)
                .headers(retryAfter ? Map.of("retry-after", "5") : Map.of()).body(new byte[0]).truncated(false)
                .finalUrl("https://example.com/").timeToFirstByte(Duration.ZERO).total(Duration.ZERO).build()));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"TIMEOUT, TIMEOUT", "CONNECT, CONNECT", "DNS, DNS", "TLS, TLS", "IO, IO", "BLOCKED, BLOCKED"})
    void of_whenFailureKind_givesOutcome(FailureKind kind, FetchOutcome expected) {
        assertEquals(expected, FetchOutcome.of(kind));
        assertEquals(expected, FetchOutcome.of(new FetchResult.Failure(kind, "m", Duration.ZERO)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"OK, false", "THROTTLED, false", "CLIENT_ERROR, false", "BLOCKED, false", "SERVER_ERROR, true",
            "TIMEOUT, true", "CONNECT, true", "DNS, true", "TLS, true", "IO, true"})
    void siteFailure_isServerErrorOrNoAnswer(FetchOutcome outcome, boolean expected) {
        assertEquals(expected, outcome.siteFailure());
    }
}
