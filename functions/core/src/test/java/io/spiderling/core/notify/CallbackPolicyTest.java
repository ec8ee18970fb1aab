package io.spiderling.core.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.net.AddressPolicy;
import io.spiderling.core.notify.CallbackPolicy.Settings;
import io.spiderling.core.notify.CallbackPolicy.Verdict;
import io.spiderling.core.notify.CallbackPolicy.Verdict.Allowed;
import io.spiderling.core.notify.CallbackPolicy.Verdict.Cause;
import io.spiderling.core.notify.CallbackPolicy.Verdict.Refused;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.ValueSource;

class CallbackPolicyTest {

    private static final Map<String, List<String>> DNS = Map.of(
            "hooks.example.com", List.of("93.184.216.34"),
            "a.example.com", List.of("93.184.216.35"),
            "b.c.example.com", List.of("2606:4700::6810:85e5"),
            "example.com", List.of("93.184.216.36"),
            "internal.example.com", List.of("10.0.0.1"),
            "mixed.example.com", List.of("93.184.216.34", "10.0.0.2"),
            "metadata.example.com", List.of("169.254.169.254"),
            "localhost", List.of("127.0.0.1"),
            "empty.example.com", List.of());

    /** The names asked for, in order. */
    private final List<String> asked = new ArrayList<>();

    private final Function<String, List<InetAddress>> resolver = host -> {
        asked.add(host);
        switch (host) {
            case "nxdomain.example.com" -> throw sneaky(new UnknownHostException(host));
            case "wrapped.example.com" -> throw new UncheckedIOException(new UnknownHostException(host));
            default -> {
                List<String> answer = DNS.get(host);
                if (answer == null) {
                    throw new AssertionError("the table resolves an unknown name: " + host);
                }
                return answer.stream().map(CallbackPolicyTest::address).toList();
            }
        }
    };

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/notify/callback-cases.csv", numLinesToSkip = 1)
    void check_whenTableCase_givesExpectedVerdict(String rule, String url, String policy, String allowedHosts,
            boolean allowHttp, String expected, String detail, String resolved) {
        CallbackPolicy callbacks = new CallbackPolicy(new Settings(words(allowedHosts), allowHttp),
                policy.equals("loopback") ? AddressPolicy.allowingLoopback() : AddressPolicy.strict(), resolver);

        Verdict verdict = callbacks.check(url);

        if (expected.equals("allowed")) {
            Allowed allowed = assertInstanceOf(Allowed.class, verdict, () -> rule + ": " + verdict);
            assertEquals(URI.create(url), allowed.uri(), rule);
            assertEquals(words(detail), allowed.addresses().stream().map(InetAddress::getHostAddress).toList(), rule);
        } else {
            assertEquals(new Refused(Cause.valueOf(expected), detail), verdict, rule);
        }
        assertEquals(words(resolved), asked, rule + ": names resolved");
    }

    @Test
    void check_whenUrlLongerThanTheLimit_refusesWithoutResolving() {
        CallbackPolicy callbacks = new CallbackPolicy(Settings.httpsOnly(List.of("*")), AddressPolicy.strict(),
                resolver);
        String base = "https://hooks.example.com/";
        String atLimit = base + "a".repeat(CallbackPolicy.MAX_LENGTH - base.length());

        assertInstanceOf(Allowed.class, callbacks.check(atLimit));
        assertEquals(new Refused(Cause.INVALID_URL, "callback URL is longer than 2048 characters"),
                callbacks.check(atLimit + "a"));
        assertEquals(List.of("hooks.example.com"), asked);
    }

    @Test
    void check_whenNull_refusesAsMissing() {
        CallbackPolicy callbacks = new CallbackPolicy(Settings.httpsOnly(List.of("*")), AddressPolicy.strict(),
                resolver);

        assertEquals(new Refused(Cause.INVALID_URL, "missing callback URL"), callbacks.check(null));
    }

    @Test
    void check_whenResolverFailsOtherwise_passesTheFailureOn() {
        IllegalStateException failure = new IllegalStateException("resolver bug");
        CallbackPolicy callbacks = new CallbackPolicy(Settings.httpsOnly(List.of("*")), AddressPolicy.strict(),
                host -> {
                    throw failure;
                });

        assertSame(failure, assertThrows(IllegalStateException.class,
                () -> callbacks.check("https://hooks.example.com/")));
    }

    @Test
    void asAttempt_whenUnresolved_isARetryableDnsFailure() {
        Refused refused = new Refused(Cause.UNRESOLVED, "cannot resolve host a.example.com");

        assertEquals(DeliveryPolicy.Attempt.failed(DeliveryPolicy.Failure.DNS, "cannot resolve host a.example.com"),
                refused.asAttempt());
        assertInstanceOf(DeliveryPolicy.Decision.Retry.class,
                DeliveryPolicy.create().decide(refused.asAttempt(), 1, 0.0));
    }

    @Test
    void asAttempt_whenAddressRefused_isBlockedAndGivesUpAtOnce() {
        Refused refused = new Refused(Cause.ADDRESS_REFUSED, "address 10.0.0.1 is private");

        assertEquals(new DeliveryPolicy.Decision.GiveUp("blocked: address 10.0.0.1 is private"),
                DeliveryPolicy.create().decide(refused.asAttempt(), 1, 0.0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "https://hooks.example.com", "hooks.example.com:443", "hooks.example.com/h",
            "a.*.example.com", "*example.com", "**.example.com", "*.", "hooks example.com"})
    void settings_whenEntryIsNotAHostPattern_throws(String entry) {
        assertThrows(IllegalArgumentException.class, () -> Settings.httpsOnly(List.of(entry)));
    }

    @Test
    void settings_whenEntriesGiven_keepsThemNormalized() {
        assertEquals(List.of("hooks.example.com", "*.example.org", "::1", "*"),
                Settings.httpsOnly(List.of(" Hooks.Example.com. ", "*.EXAMPLE.org", "[::1]", "*")).allowedHosts());
    }

    private static List<String> words(String text) {
        return text == null ? List.of() : Arrays.stream(text.strip().split("\\s+")).filter(w -> !w.isEmpty()).toList();
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal); // a literal: parsed, never looked up
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** Throws a checked exception through {@link Function#apply}, as a resolver wrapping getAllByName might. */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E {
        throw (E) t;
    }
}
