package io.spiderling.core.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class Ipv6LiteralsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // RFC 5952 section 4 examples and the edges of "::"
            "[2001:0db8:0000:0000:0000:0000:0000:0001] | [2001:db8::1]",
            "[2001:db8:0:0:0:0:2:1]                    | [2001:db8::2:1]",
            "[2001:db8:0:1:1:1:1:1]                    | [2001:db8:0:1:1:1:1:1]",
            "[2001:0:0:1:0:0:0:1]                      | [2001:0:0:1::1]",
            "[2001:db8:0:0:1:0:0:1]                    | [2001:db8::1:0:0:1]",
            "[2001:DB8::AbCd]                          | [2001:db8::abcd]",
            "[::]                                      | [::]",
            "[::1]                                     | [::1]",
            "[1::]                                     | [1::]",
            "[0:0:0:0:0:0:0:1]                         | [::1]",
            "[1:0:0:0:0:0:0:0]                         | [1::]",
            "[1:2:3:4:5:6:7:8]                         | [1:2:3:4:5:6:7:8]",
            "[1:2:3:4:5:6::8]                          | [1:2:3:4:5:6:0:8]",
            "[::ffff:192.0.2.1]                        | [::ffff:192.0.2.1]",
            "[::ffff:c000:0201]                        | [::ffff:192.0.2.1]",
            "[0:0:0:0:0:ffff:255.255.255.255]          | [::ffff:255.255.255.255]",
            "[::1.2.3.4]                               | [::102:304]",
            "[64:ff9b::192.0.2.1]                      | [64:ff9b::c000:201]",
    })
    void canonical_whenAddressLiteral_isRfc5952Form(String literal, String expected) {
        assertEquals(expected, Ipv6Literals.canonical(literal));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "[]", "::1", "[::1", "[fe80::1%eth0]", "[v1.abc]", "[1:2:3:4:5:6:7:8:9]",
            "[1:2:3:4:5:6:7]", "[1::2::3]", "[12345::1]", "[g::1]", "[1:::2]", "[1.2.3.4::1]", "[::1.2.3]",
            "[::1.2.3.256]", "[::01.2.3.4]", "[::1.2.3.4:5]", "[1:2:3:4:5:6:7::8]", "[:1:2:3:4:5:6:7]"})
    void canonical_whenNotAnAddressLiteral_isNull(String literal) {
        assertNull(Ipv6Literals.canonical(literal));
    }
}
