package io.spiderling.core.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.spiderling.core.extract.SniffedEncoding.Rule;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;

class EncodingSnifferTest {

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/extract/encoding-sniffer-cases.csv", numLinesToSkip = 1, delimiter = '|',
            quoteCharacter = '`')
    void sniff_whenTableCase_choosesExpectedEncodingByExpectedRule(String name, String contentType, String body,
            String encoding, Rule rule) {
        SniffedEncoding sniffed = EncodingSniffer.sniff(bytes(body), contentType);

        assertEquals(encoding, sniffed.name());
        assertEquals(rule, sniffed.rule());
    }

    @Test
    void sniff_whenBodyIsNull_detectsWindows1252() {
        assertEquals(new SniffedEncoding("windows-1252", Charset.forName("windows-1252"), Rule.DETECTED),
                EncodingSniffer.sniff(null, null));
    }

    @Test
    void sniff_whenShiftJis_decodesWithWindows31jAsBrowsersDo() {
        SniffedEncoding sniffed = EncodingSniffer.sniff(new byte[0], "text/html; charset=shift_jis");

        assertEquals(Charset.forName("windows-31j"), sniffed.charset());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
            text/html; charset=utf-8                 | utf-8
            text/html;charset="koi8-r"               | koi8-r
            text/html; charset="a\\"b"               | a"b
            text/html; charset="unterminated         | unterminated
            text/html; charset                       | null
            text/html; charset=                      | null
            text/html                                | null
            text/html; other=1; CharSet=latin1       | latin1
            """)
    void charsetParameter_whenContentType_readsTheFirstCharsetParameter(String contentType, String expected) {
        assertEquals(expected, EncodingSniffer.charsetParameter(contentType));
    }

    @Test
    void charsetParameter_whenNull_returnsNull() {
        assertNull(EncodingSniffer.charsetParameter(null));
    }

    @Test
    void decode_whenBom_leavesItOutOfTheText() {
        byte[] body = bytes("\\xEF\\xBB\\xBFcaf\\xC3\\xA9");

        assertEquals("café", EncodingSniffer.sniff(body, "text/html; charset=latin1").decode(body));
    }

    @Test
    void decode_whenUtf16leBom_decodesTheRest() {
        byte[] body = bytes("\\xFF\\xFEc\\x00a\\x00f\\x00\\xE9\\x00");

        assertEquals("café", EncodingSniffer.sniff(body, null).decode(body));
    }

    @Test
    void decode_whenWindows1252_mapsCurlyQuotesAndEuro() {
        byte[] body = bytes("\\x93caf\\xE9\\x94 \\x80");

        assertEquals("\u201Ccafé\u201D €", EncodingSniffer.sniff(body, "text/html; charset=iso-8859-1").decode(body));
    }

    /** Text with {@code \xNN} escapes as bytes, or the bytes of {@code file:NAME} under {@code /extract/}. */
    static byte[] bytes(String spec) {
        if (spec == null) {
            return new byte[0];
        }
        if (spec.startsWith("file:")) {
            try (InputStream in = EncodingSnifferTest.class.getResourceAsStream("/extract/" + spec.substring(5))) {
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < spec.length(); i++) {
            if (spec.startsWith("\\x", i)) {
                out.write(Integer.parseInt(spec.substring(i + 2, i + 4), 16));
                i += 3;
            } else {
                out.write(spec.substring(i, i + 1).getBytes(StandardCharsets.US_ASCII)[0]);
            }
        }
        return out.toByteArray();
    }
}
