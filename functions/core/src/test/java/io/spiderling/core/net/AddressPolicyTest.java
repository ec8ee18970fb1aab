package io.spiderling.core.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.net.AddressPolicy.Settings;
import io.spiderling.core.net.AddressPolicy.Verdict;
import io.spiderling.core.net.AddressPolicy.Verdict.Allowed;
import io.spiderling.core.net.AddressPolicy.Verdict.Refused;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AddressPolicyTest {

    private static final String ALLOWED = "allowed";
    private static final Pattern IPV4 = Pattern.compile("(?:[0-9]{1,3}\\.){3}[0-9]{1,3}");

    @ParameterizedTest(name = "{0} ({1}): {2}")
    @CsvFileSource(resources = "/net/address-policy-cases.csv", numLinesToSkip = 1)
    void check_whenTableCase_givesExpectedVerdict(String literal, String policyName, String expected) throws Exception {
        InetAddress address = literal(literal);

        Verdict verdict = policy(policyName).check(address);

        assertSame(address, verdict.address());
        if (expected.equals(ALLOWED)) {
            assertInstanceOf(Allowed.class, verdict, () -> "refused as " + ((Refused) verdict).reason());
            assertTrue(verdict.allowed());
        } else {
            assertEquals(expected, assertInstanceOf(Refused.class, verdict).reason());
            assertFalse(verdict.allowed());
        }
    }

    @Test
    void check_whenJavaParsedAMappedLiteral_judgesTheIpv4AddressItBecame() throws Exception {
        InetAddress parsed = InetAddress.getByName("::ffff:127.0.0.1"); // a literal: parsed, never looked up

        assertInstanceOf(Inet4Address.class, parsed);
        assertEquals("loopback", assertInstanceOf(Refused.class, AddressPolicy.strict().check(parsed)).reason());
        // Java has already made it 127.0.0.1, which is what a test site on loopback would be reached at
        assertTrue(AddressPolicy.allowingLoopback().check(parsed).allowed());
    }

    @Test
    void check_whenLinkLocalHasAScope_refuses() throws Exception {
        InetAddress scoped = Inet6Address.getByAddress(null, literal("fe80::1").getAddress(), 2);

        assertEquals("link-local", assertInstanceOf(Refused.class, AddressPolicy.strict().check(scoped)).reason());
    }

    @Test
    void check_whenNull_throws() {
        assertThrows(NullPointerException.class, () -> AddressPolicy.strict().check(null));
    }

    @Test
    void checkAll_whenEveryAddressIsPublic_allowsTheFirst() throws Exception {
        List<InetAddress> answer = List.of(literal("2606:4700::6810:85e5"), literal("93.184.216.34"));

        Verdict verdict = AddressPolicy.strict().checkAll(answer);

        assertSame(answer.get(0), assertInstanceOf(Allowed.class, verdict).address());
    }

    @ParameterizedTest(name = "bad address at {0}")
    @ValueSource(ints = {0, 1, 2})
    void checkAll_whenOneAddressIsRefused_refusesTheHostWithThatAddress(int badIndex) throws Exception {
        InetAddress[] answer = {literal("93.184.216.34"), literal("2606:4700::6810:85e5"), literal("8.8.8.8")};
        answer[badIndex] = literal("169.254.169.254");

        Refused refused = assertInstanceOf(Refused.class, AddressPolicy.strict().checkAll(List.of(answer)));

        assertSame(answer[badIndex], refused.address());
        assertEquals("link-local", refused.reason());
    }

    @Test
    void checkAll_whenSeveralAreRefused_reportsTheFirstInAnswerOrder() throws Exception {
        List<InetAddress> answer = List.of(literal("8.8.8.8"), literal("10.0.0.1"), literal("::1"));

        Refused refused = assertInstanceOf(Refused.class, AddressPolicy.strict().checkAll(answer));

        assertEquals("private", refused.reason());
    }

    @Test
    void checkAll_whenLoopbackAllowedButAnswerAlsoHasPrivate_refuses() throws Exception {
        List<InetAddress> answer = List.of(literal("127.0.0.1"), literal("192.168.0.10"));

        Refused refused = assertInstanceOf(Refused.class, AddressPolicy.allowingLoopback().checkAll(answer));

        assertEquals("private", refused.reason());
    }

    @Test
    void checkAll_whenLoopbackAllowedAndAnswerIsLoopback_allows() throws Exception {
        List<InetAddress> answer = List.of(literal("::1"), literal("127.0.0.1"));

        assertSame(answer.get(0), AddressPolicy.allowingLoopback().checkAll(answer).address());
    }

    @Test
    void checkAll_whenEmpty_throws() {
        assertThrows(IllegalArgumentException.class, () -> AddressPolicy.strict().checkAll(List.of()));
    }

    @Test
    void create_whenSettingsGiven_returnsTheMatchingPolicy() {
        assertSame(AddressPolicy.strict(), AddressPolicy.create(Settings.STRICT));
        assertSame(AddressPolicy.allowingLoopback(), AddressPolicy.create(new Settings(true)));
        assertFalse(AddressPolicy.strict().settings().allowLoopback());
        assertTrue(AddressPolicy.allowingLoopback().settings().allowLoopback());
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "http://example.com/                | ",
            "https://example.com/a?b=1          | ",
            "HTTPS://Example.com/               | ",
            "hTtP://example.com                 | ",
            "ftp://example.com/file             | unsupported scheme: ftp",
            "file:///etc/passwd                 | unsupported scheme: file",
            "gopher://127.0.0.1:6379/_INFO      | unsupported scheme: gopher",
            "JavaScript:alert(1)                | unsupported scheme: javascript",
            "data:text/html,<p>                 | unsupported scheme: data",
            "jar:http://example.com/a.jar!/     | unsupported scheme: jar",
            "https+unix://socket/               | unsupported scheme: https+unix",
            "//example.com/relative             | missing scheme",
            "/path/only                         | missing scheme",
            "'  http://example.com/'            | missing scheme",
            "''                                 | missing scheme",
            "NULL                               | missing URL",
    })
    void checkUrlScheme_whenTableCase_givesExpectedReason(String url, String expected) {
        assertEquals(Optional.ofNullable(expected), AddressPolicy.checkUrlScheme(url));
    }

    private static AddressPolicy policy(String name) {
        return switch (name) {
            case "strict" -> AddressPolicy.strict();
            case "loopback" -> AddressPolicy.allowingLoopback();
            default -> throw new IllegalArgumentException("unknown policy in table: " + name);
        };
    }

    /**
     * The address a literal spells, in the family it is written in. Java turns {@code ::ffff:a.b.c.d} into an
     * {@link Inet4Address}; building the {@link Inet6Address} from bytes keeps the mapped form, which is what a
     * resolver or a socket may still hand over.
     */
    static InetAddress literal(String text) throws UnknownHostException {
        if (text.indexOf(':') < 0) {
            if (!IPV4.matcher(text).matches()) {
                throw new IllegalArgumentException("not an IPv4 literal, and no DNS in tests: " + text);
            }
            String[] parts = text.split("\\.");
            byte[] bytes = new byte[4];
            for (int i = 0; i < 4; i++) {
                bytes[i] = (byte) Integer.parseInt(parts[i]);
            }
            return InetAddress.getByAddress(bytes);
        }
        byte[] bytes = InetAddress.getByName(text).getAddress(); // with a colon it is parsed as IPv6, never resolved
        if (bytes.length == 4) {
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(bytes, 0, mapped, 12, 4);
            bytes = mapped;
        }
        return Inet6Address.getByAddress(null, bytes, -1);
    }
}
