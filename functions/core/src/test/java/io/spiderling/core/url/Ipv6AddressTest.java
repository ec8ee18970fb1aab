package io.spiderling.core.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class Ipv6AddressTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // RFC 5952 section 4 examples and the edges of "::"
            "2001:0db8:0000:0000:0000:0000:0000:0001 | 2001:db8::1",
            "2001:db8:0:0:0:0:2:1                    | 2001:db8::2:1",
            "2001:db8:0:1:1:1:1:1                    | 2001:db8:0:1:1:1:1:1",
            "2001:0:0:1:0:0:0:1                      | 2001:0:0:1::1",
            "2001:db8:0:0:1:0:0:1                    | 2001:db8::1:0:0:1",
            "2001:DB8::AbCd                          | 2001:db8::abcd",
            "::                                      | ::",
            "::1                                     | ::1",
            "1::                                     | 1::",
            "0:0:0:0:0:0:0:1                         | ::1",
            "1:0:0:0:0:0:0:0                         | 1::",
            "1:2:3:4:5:6:7:8                         | 1:2:3:4:5:6:7:8",
            "1:2:3:4:5:6::8                          | 1:2:3:4:5:6:0:8",
            // an embedded IPv4 address is read, but written in hex, as browsers write it
            "::ffff:192.0.2.1                        | ::ffff:c000:201",
            "::ffff:c000:0201                        | ::ffff:c000:201",
            "0:0:0:0:0:ffff:255.255.255.255          | ::ffff:ffff:ffff",
            "::1.2.3.4                               | ::102:304",
            "64:ff9b::192.0.2.1                      | 64:ff9b::c000:201",
            "1:2:3:4:5:6:1.2.3.4                     | 1:2:3:4:5:6:102:304",
    })
    void parse_whenAddress_serializesAsBrowsersDo(String text, String expected) {
        assertEquals(expected, Ipv6Address.serialize(Ipv6Address.parse(text)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ":", "1", "fe80::1%eth0", "::%31", "v1.abc", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7",
            "1::2::3", "12345::1", "g::1", "1:::2", "1.2.3.4::1", "::1.2.3", "::1.2.3.256", "::01.2.3.4", "::1.2.3.4:5",
            "1:2:3:4:5:6:7::8", ":1:2:3:4:5:6:7", "1:", "1:2:3:4:5:6:7:1.2.3.4", "::.1.2.3", "::1.2..3", "::١"})
    void parse_whenNotAnAddress_isNull(String text) {
        assertNull(Ipv6Address.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"::ffff:7f00:1", "::ffff:0.0.0.0", "0:0:0:0:0:ffff:1:2"})
    void isIpv4Mapped_whenFfffPrefix_isTrue(String text) {
        assertTrue(Ipv6Address.isIpv4Mapped(Ipv6Address.parse(text)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"::1.2.3.4", "::fffe:7f00:1", "1::ffff:7f00:1", "64:ff9b::7f00:1"})
    void isIpv4Mapped_whenOtherAddress_isFalse(String text) {
        assertFalse(Ipv6Address.isIpv4Mapped(Ipv6Address.parse(text)));
    }
}
