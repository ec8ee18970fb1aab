package io.spiderling.core.fetch;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * The bytes of a capture object: an HTTP/1.1 request message followed by the response message, as exchanged.
 *
 * <pre>
 * GET /page HTTP/1.1␍␊            the request exactly as written to the connection
 * Host: example.com␍␊
 * …␍␊
 * ␍␊
 * HTTP/1.1 200 OK␍␊               the status line and headers as received, in order, names as spelled
 * Content-Encoding: gzip␍␊
 * …␍␊
 * ␍␊
 * &lt;payload&gt;                        the entity body as transferred (gzip bytes stay gzip)
 * </pre>
 *
 * <p>Each head ends at its first empty line, so the object splits without lengths or framing of its own: a GET has
 * no body, and a header can hold no line end. The one change from the wire: the HTTP client removes the chunked
 * transfer coding, so a {@code Transfer-Encoding} header is stored renamed to {@value #ORIGINAL_TRANSFER_ENCODING}
 * (value kept) and the payload follows unchunked, which is how WARC tools read it; no chunk framing is invented.
 * See docs/warc.md. Pure.
 */
public final class CaptureFormat {

    /**
     * A capture object's Content-Type: an HTTP request message then its response; not {@code application/http}, which
     * may not mix requests and responses.
     */
    public static final String CONTENT_TYPE = "application/x-spiderling-capture";
    /** What a received {@code Transfer-Encoding} header is stored as, since its coding was removed. */
    public static final String ORIGINAL_TRANSFER_ENCODING = "X-Spiderling-Original-Transfer-Encoding";

    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] HEAD_END = {'\r', '\n', '\r', '\n'};

    private CaptureFormat() {}

    /** Whether {@code bytes} are exactly one message head: they end at their first empty line. */
    public static boolean isMessageHead(byte[] bytes) {
        return headEnd(bytes, 0) == bytes.length;
    }

    /** The object's bytes. */
    public static byte[] encode(WireExchange exchange) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(exchange.request().length + 512
                + exchange.payload().length);
        out.writeBytes(exchange.request());
        out.writeBytes(exchange.statusLine().getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(CRLF);
        for (WireExchange.Header h : exchange.responseHeaders()) {
            String name = h.name().toLowerCase(Locale.ROOT).equals("transfer-encoding")
                    ? ORIGINAL_TRANSFER_ENCODING : h.name();
            out.writeBytes((name + ": " + h.value()).getBytes(StandardCharsets.ISO_8859_1));
            out.writeBytes(CRLF);
        }
        out.writeBytes(CRLF);
        out.writeBytes(exchange.payload());
        return out.toByteArray();
    }

    /**
     * A capture object split into the request message and the response message.
     *
     * @param request the request head (the WARC request record's block)
     * @param response the response head and payload (the WARC response record's block)
     * @param payloadStart where the payload starts in {@code response}
     */
    public record Parts(byte[] request, byte[] response, int payloadStart) {
        public Parts {
            Objects.requireNonNull(request, "request");
            Objects.requireNonNull(response, "response");
            Objects.checkIndex(payloadStart, response.length + 1);
        }

        public byte[] responseHead() {
            return Arrays.copyOf(response, payloadStart);
        }

        public byte[] payload() {
            return Arrays.copyOfRange(response, payloadStart, response.length);
        }

        /** The status code from the response's status line. */
        public int status() {
            String head = new String(response, 0, payloadStart, StandardCharsets.ISO_8859_1);
            String line = head.substring(0, head.indexOf("\r\n"));
            String[] fields = line.split(" ", 3);
            if (fields.length < 2 || !fields[0].startsWith("HTTP/")) {
                throw new IllegalArgumentException("not an HTTP status line: " + line);
            }
            return Integer.parseInt(fields[1]);
        }
    }

    /** @throws IllegalArgumentException when the bytes are not two message heads and a payload */
    public static Parts decode(byte[] object) {
        int requestEnd = headEnd(object, 0);
        if (requestEnd < 0) {
            throw new IllegalArgumentException("no end of the request head in the capture");
        }
        int responseEnd = headEnd(object, requestEnd);
        if (responseEnd < 0) {
            throw new IllegalArgumentException("no end of the response head in the capture");
        }
        return new Parts(Arrays.copyOf(object, requestEnd), Arrays.copyOfRange(object, requestEnd, object.length),
                responseEnd - requestEnd);
    }

    /** The index just past the first empty line at or after {@code from}; -1 when there is none. */
    private static int headEnd(byte[] bytes, int from) {
        for (int i = from; i + HEAD_END.length <= bytes.length; i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n' && bytes[i + 2] == '\r' && bytes[i + 3] == '\n') {
                return i + HEAD_END.length;
            }
        }
        return -1;
    }
}
