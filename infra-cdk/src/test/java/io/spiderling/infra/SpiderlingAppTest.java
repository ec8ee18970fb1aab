package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.ConfigKeys;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.Queue;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Reading context into props: no synth, so these are fast. */
class SpiderlingAppTest {

    private final String artifact = TestArtifacts.jvmZip().toString();

    @Test
    void props_whenOnlyArtifactAndAuth_takesEveryDefault() {
        SpiderlingStackProps props = props(Map.of("artifact", artifact, "auth", "iam"));
        assertEquals(new ApiAuth.Iam(), props.auth());
        assertEquals("spiderling", props.resourcePrefix());
        assertEquals("sub", props.clientClaim());
        assertEquals(Optional.empty(), props.architecture());
        assertEquals(30, props.logRetentionDays());
        assertEquals(50.0, props.throttleRateLimit());
        assertEquals(100, props.throttleBurstLimit());
        assertEquals(Duration.ofSeconds(900), props.frontierLagAlarm());
        assertEquals(Optional.of(Catalog.DEFAULT_FETCH_CONCURRENCY),
                props.maxConcurrency(Catalog.function(FunctionNames.FETCH)));
        assertEquals(Optional.of(Catalog.DEFAULT_PLAN_CONCURRENCY),
                props.maxConcurrency(Catalog.function(FunctionNames.PLAN)));
        assertEquals(Optional.of(Catalog.DEFAULT_EXTRACT_CONCURRENCY),
                props.reservedConcurrency(Catalog.function(FunctionNames.EXTRACT)));
        assertEquals(Optional.of(Catalog.DEFAULT_CANONICALIZE_CONCURRENCY),
                props.reservedConcurrency(Catalog.function(FunctionNames.CANONICALIZE)));
        assertEquals(Optional.empty(), props.reservedConcurrency(Catalog.function(FunctionNames.FETCH)));
        assertEquals(Optional.empty(), props.lostAfter());
        assertTrue(props.omittedQueues().isEmpty());
        assertTrue(props.siteLists().isEmpty());
        assertEquals(false, props.deletionProtection());
        assertEquals(false, props.bucketVersioning());
        assertEquals(Optional.empty(), props.contentExpiry());
    }

    @Test
    void props_whenEveryKeySet_readsEach() {
        String rates = TestArtifacts.textFile("rates", "example.com 2\n").toString();
        String optOut = TestArtifacts.textFile("opt-out", "example.net\n").toString();
        Map<String, Object> context = new HashMap<>(Map.of("artifact", artifact, "auth", "jwt",
                "jwtIssuer", "https://auth.example.com/", "jwtAudience", "a, b", "clientClaim", "client_id",
                "architecture", "x86_64", "userAgent", "examplebot/1 (+https://x.example)", "robotsAgent",
                "examplebot", "callbackHosts", "hooks.example.com,*.example.org", "lostAfter", "25m"));
        context.putAll(Map.of("rateOverridesFile", rates, "optOutFile", optOut, "logRetentionDays", "14",
                "throttleRateLimit", "2.5", "throttleBurstLimit", "5", "eventsQueue", "false",
                "deletionProtection", true, "bucketVersioning", "true", "contentExpiryDays", 90,
                "fetchConcurrency", "300"));
        context.put("frontierLagAlarmSeconds", "1200");
        context.put("prefix", "crawl-eu");
        context.putAll(Map.of("adminGroups", "operators, sre", "adminRoles",
                "arn:aws:iam::123456789012:role/ops", "quotaUrlsPerDay", "50000"));
        context.putAll(Map.of("planConcurrency", "5", "extractConcurrency", "250", "canonicalizeConcurrency", "8"));

        SpiderlingStackProps props = props(context);
        assertEquals(ApiAuth.jwt(URI.create("https://auth.example.com/"), List.of("a", "b")), props.auth());
        assertEquals("client_id", props.clientClaim());
        assertEquals(Optional.of(CpuArchitecture.X86_64), props.architecture());
        assertEquals(Optional.of("examplebot"), props.robotsAgent());
        assertEquals(Optional.of(List.of("hooks.example.com", "*.example.org")), props.callbackHosts());
        assertEquals(List.of("operators", "sre"), props.adminGroups());
        assertEquals(List.of("arn:aws:iam::123456789012:role/ops"), props.adminRoles());
        assertEquals(Optional.of(50_000L), props.quotaUrlsPerDay());
        assertEquals(Optional.of(Duration.ofMinutes(25)), props.lostAfter());
        assertEquals(Map.of(ConfigKeys.FETCH_RATE_OVERRIDES_FILE, java.nio.file.Path.of(rates),
                ConfigKeys.FETCH_OPT_OUT_FILE, java.nio.file.Path.of(optOut)), props.siteLists());
        assertEquals(14, props.logRetentionDays());
        assertEquals(2.5, props.throttleRateLimit());
        assertEquals(5, props.throttleBurstLimit());
        assertEquals(java.util.Set.of(Queue.EVENTS), props.omittedQueues());
        assertTrue(props.deletionProtection());
        assertTrue(props.bucketVersioning());
        assertEquals(Optional.of(Duration.ofDays(90)), props.contentExpiry());
        assertEquals(Optional.of(300), props.maxConcurrency(Catalog.function(FunctionNames.FETCH)));
        assertEquals(Optional.of(5), props.maxConcurrency(Catalog.function(FunctionNames.PLAN)));
        assertEquals(Optional.of(250), props.reservedConcurrency(Catalog.function(FunctionNames.EXTRACT)));
        assertEquals(Optional.of(8), props.reservedConcurrency(Catalog.function(FunctionNames.CANONICALIZE)));
        assertEquals(Duration.ofSeconds(1200), props.frontierLagAlarm());
        assertEquals("crawl-eu", props.resourcePrefix());
    }

    @Test
    void props_whenArtifactMissing_namesTheKey() {
        assertProblem(Map.of("auth", "iam"), "-c artifact is required");
    }

    @Test
    void props_whenArtifactFileAbsent_saysWhere() {
        assertProblem(Map.of("artifact", "target/none/function.zip", "auth", "iam"),
                "-c artifact names no file:");
    }

    @Test
    void props_whenAuthMissingOrUnknown_namesTheChoices() {
        assertProblem(Map.of("artifact", artifact), "-c auth is required: jwt");
        assertProblem(Map.of("artifact", artifact, "auth", "apikey"), "-c auth must be jwt or iam, was 'apikey'");
    }

    @Test
    void props_whenJwtWithoutIssuerOrAudience_saysWhichIsMissing() {
        assertProblem(Map.of("artifact", artifact, "auth", "jwt", "jwtAudience", "a"), "-c jwtIssuer is required");
        assertProblem(Map.of("artifact", artifact, "auth", "jwt", "jwtIssuer", "https://auth.example.com/"),
                "-c jwtAudience is required");
        assertProblem(Map.of("artifact", artifact, "auth", "jwt", "jwtIssuer", "https://auth.example.com/",
                "jwtAudience", " , "), "-c jwtAudience is required");
    }

    @Test
    void props_whenJwtIssuerIsNotHttps_refusesIt() {
        assertProblem(Map.of("artifact", artifact, "auth", "jwt", "jwtIssuer", "http://auth.example.com/",
                "jwtAudience", "a"), "-c jwtIssuer must be an https URL");
    }

    @Test
    void props_whenNumbersAreNotNumbersOrOutOfRange_namesTheKeyAndValue() {
        assertProblem(with("throttleRateLimit", "fast"), "-c throttleRateLimit must be a number, was 'fast'");
        assertProblem(with("throttleRateLimit", "-1"), "-c throttleRateLimit must be positive");
        assertProblem(with("throttleBurstLimit", "1.5"), "-c throttleBurstLimit must be a whole number");
        assertProblem(with("fetchConcurrency", "1"), "-c fetchConcurrency must be 2-1000, was 1");
        assertProblem(with("fetchConcurrency", "1001"), "-c fetchConcurrency must be 2-1000, was 1001");
        assertProblem(with("extractConcurrency", "0"), "-c extractConcurrency must be 1-900, was 0");
        assertProblem(with("extractConcurrency", "890"), "reserved concurrency 910 in all leaves less than the 100");
        assertProblem(with("contentExpiryDays", "0"), "-c contentExpiryDays must be 1-36500, was 0");
        assertProblem(with("frontierLagAlarmSeconds", "ten"), "-c frontierLagAlarmSeconds must be a whole number");
        assertProblem(with("eventsQueue", "maybe"), "-c eventsQueue must be true or false, was 'maybe'");
        assertProblem(with("architecture", "riscv64"), "-c architecture must be arm64 or x86_64");
    }

    @Test
    void props_whenLogRetentionIsNotAPeriodCloudWatchOffers_saysSo() {
        assertProblem(with("logRetentionDays", "31"), "log retention 31 days is not a period CloudWatch Logs");
    }

    @Test
    void props_whenLostAfterUnreadable_namesTheKey() {
        assertProblem(with("lostAfter", "soon"), "-c lostAfter must be a duration");
    }

    @Test
    void props_whenLostAfterWithinTheFetchQueuesRetries_failsOnTheCatalogsCheck() {
        assertProblem(with("lostAfter", "18m"), "spiderling.frontier.lost-after (PT18M) must exceed");
    }

    @Test
    void props_whenUserAgentLacksTheRobotsToken_saysSo() {
        Map<String, Object> context = new HashMap<>(with("userAgent", "examplebot/1.0"));
        context.put("robotsAgent", "otherbot");
        assertProblem(context, "must contain the robots.txt agent token 'otherbot'");
    }

    @Test
    void props_whenSiteListFileAbsent_namesTheKey() {
        assertProblem(with("optOutFile", "no/such/opt-out.txt"), "-c optOutFile names no file");
    }

    private Map<String, Object> with(String key, Object value) {
        return Map.of("artifact", artifact, "auth", "iam", key, value);
    }

    private static SpiderlingStackProps props(Map<String, Object> context) {
        return SpiderlingApp.props(new AppContext(context::get));
    }

    private static void assertProblem(Map<String, Object> context, String expected) {
        var e = assertThrows(IllegalArgumentException.class, () -> props(context));
        assertTrue(e.getMessage().contains(expected), () -> "expected \"" + expected + "\" in: " + e.getMessage());
    }
}
