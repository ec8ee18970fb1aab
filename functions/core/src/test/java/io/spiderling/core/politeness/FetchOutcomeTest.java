package io.spiderling.core.politeness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.fetch.FetchResult;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FetchOutcomeTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "200, OK", "204, OK", "301, OK", "304, OK", "100, OK",
            "429, THROTTLED", "503, THROTTLED",
            "500, SERVER_ERROR", "502, SERVER_ERROR", "504, SERVER_ERROR", "599, SERVER_ERROR",
            "408, TIMEOUT",
            "400, CLIENT_ERROR", "401, CLIENT_ERROR", "403, CLIENT_ERROR", "404, CLIENT_ERROR", "410, CLIENT_ERROR",
            "451, CLIENT_ERROR", "0, CLIENT_ERROR", "99, CLIENT_ERROR", "600, CLIENT_ERROR", "999, CLIENT_ERROR",
    })
    void ofStatus_whenStatus_givesOutcome(int status, FetchOutcome expected) {
        assertEquals(expected, FetchOutcome.ofStatus(status));
        assertEquals(expected, FetchOutcome.of(new FetchResult.Response(status, Map.of(), new byte[0], false,
                "https://example.com/", Duration.ZERO, Duration.ZERO)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "timeout, TIMEOUT", "connect, CONNECT", "dns, DNS", "tls, TLS", "io, IO", "TIMEOUT, TIMEOUT",
            "something-new, IO", "'', IO",
    })
    void ofFailureKind_whenKind_givesOutcome(String kind, FetchOutcome expected) {
        assertEquals(expected, FetchOutcome.ofFailureKind(kind));
        assertEquals(expected, FetchOutcome.of(new FetchResult.Failure(kind, "m", Duration.ZERO)));
    }
}
