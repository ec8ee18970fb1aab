package io.spiderling.core.fetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class CaptureFormatTest {

    private static final byte[] REQUEST = ascii("GET /a?b=1 HTTP/1.1\r\nUser-Agent: t\r\nHost: example.com\r\n\r\n");

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/fetch/capture-response-heads.csv", numLinesToSkip = 1, nullValues = {})
    void encode_whenResponseHead_storesItAsReceivedSaveTheRemovedCoding(String name, String statusLine,
            String received, String stored) {
        byte[] payload = {0x1f, (byte) 0x8b, '\r', '\n', '\r', '\n', 0};
        WireExchange exchange = WireExchange.builder().request(REQUEST).statusLine(statusLine)
                .responseHeaders(headers(received)).remoteIp("192.0.2.1").payload(payload).payloadTruncated(false)
                .build();

        byte[] object = CaptureFormat.encode(exchange);

        String expectedHead = statusLine + "\r\n" + (stored == null ? "" : stored.replace("|", "\r\n") + "\r\n")
                + "\r\n";
        assertArrayEquals(concat(REQUEST, ascii(expectedHead), payload), object, name);
        CaptureFormat.Parts parts = CaptureFormat.decode(object);
        assertArrayEquals(REQUEST, parts.request(), name);
        assertEquals(expectedHead, new String(parts.responseHead(), StandardCharsets.ISO_8859_1), name);
        assertArrayEquals(payload, parts.payload(), name);
        assertEquals(Integer.parseInt(statusLine.split(" ")[1]), parts.status(), name);
    }

    @Test
    void decode_whenThePayloadHoldsEmptyLines_splitsAtTheHeadsOnly() {
        byte[] payload = ascii("\r\n\r\nHTTP/1.1 500 not a head\r\n\r\n");
        WireExchange exchange = WireExchange.builder().request(REQUEST).statusLine("HTTP/1.1 200 OK")
                .responseHeaders(List.of()).remoteIp("2001:db8::1").payload(payload).payloadTruncated(false).build();

        CaptureFormat.Parts parts = CaptureFormat.decode(CaptureFormat.encode(exchange));

        assertArrayEquals(payload, parts.payload());
        assertEquals(200, parts.status());
    }

    @Test
    void exchange_whenTheRequestIsNotOneHead_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> WireExchange.builder()
                .request(ascii("GET / HTTP/1.1\r\nHost: a\r\n")).statusLine("HTTP/1.1 200 OK")
                .responseHeaders(List.of()).remoteIp("192.0.2.1").payload(new byte[0]).payloadTruncated(false).build());
        assertThrows(IllegalArgumentException.class, () -> WireExchange.builder()
                .request(ascii("POST / HTTP/1.1\r\nHost: a\r\n\r\nbody")).statusLine("HTTP/1.1 200 OK")
                .responseHeaders(List.of()).remoteIp("192.0.2.1").payload(new byte[0]).payloadTruncated(false).build());
    }

    @Test
    void header_whenItHoldsALineEnd_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> new WireExchange.Header("X-A", "b\r\nInjected: c"));
        assertThrows(IllegalArgumentException.class, () -> new WireExchange.Header("X-A\n", "b"));
    }

    @Test
    void decode_whenNotACapture_throws() {
        assertThrows(IllegalArgumentException.class, () -> CaptureFormat.decode(ascii("GET / HTTP/1.1\r\n")));
        assertThrows(IllegalArgumentException.class,
                () -> CaptureFormat.decode(ascii("GET / HTTP/1.1\r\n\r\nHTTP/1.1 200 OK\r\n")));
    }

    private static List<WireExchange.Header> headers(String joined) {
        if (joined == null) {
            return List.of();
        }
        return Arrays.stream(joined.split("\\|")).map(h -> new WireExchange.Header(h.substring(0, h.indexOf(':')),
                h.substring(h.indexOf(':') + 2))).toList();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] concat(byte[]... parts) {
        int length = Arrays.stream(parts).mapToInt(p -> p.length).sum();
        byte[] out = new byte[length];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
