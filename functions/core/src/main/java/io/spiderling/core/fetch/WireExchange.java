package io.spiderling.core.fetch;

import java.util.List;
import java.util.Objects;

/**
 * One HTTP exchange as it went over the wire, for a WARC record that holds what was sent and received rather than a
 * reconstruction. The fetcher takes it only when the request asks for a capture.
 *
 * @param request the request's bytes exactly as written to the connection: request line, every header (Host
 *     included) in the order sent, and the empty line
 * @param statusLine the response's status line as received, without its line end, such as {@code HTTP/1.1 200 OK}
 * @param responseHeaders the response headers as received: order, spelling of names and repeated names kept
 * @param remoteIp the address connected to, as text ({@code 93.184.215.14}, {@code 2001:db8::1})
 * @param payload the entity body as transferred: before content decoding (gzip bytes when the site sent gzip), with
 *     the transfer coding (chunked) removed by the HTTP client
 * @param payloadTruncated the payload was cut at the fetcher's size cap
 */
public record WireExchange(byte[] request, String statusLine, List<Header> responseHeaders, String remoteIp,
        byte[] payload, boolean payloadTruncated) {

    public WireExchange {
        Objects.requireNonNull(request, "request");
        if (!CaptureFormat.isMessageHead(request)) {
            throw new IllegalArgumentException("the request must be one message head ending in an empty line");
        }
        requireLine(statusLine, "statusLine");
        responseHeaders = List.copyOf(responseHeaders);
        Objects.requireNonNull(remoteIp, "remoteIp");
        Objects.requireNonNull(payload, "payload");
    }

    /** One header field, name and value as received. Neither may hold a line end. */
    public record Header(String name, String value) {
        public Header {
            requireLine(name, "name");
            requireLine(value, "value");
            if (name.isEmpty()) {
                throw new IllegalArgumentException("a header name must not be empty");
            }
        }
    }

    private static void requireLine(String text, String what) {
        Objects.requireNonNull(text, what);
        if (text.indexOf('\r') >= 0 || text.indexOf('\n') >= 0) {
            throw new IllegalArgumentException(what + " must not hold a line end: " + text);
        }
    }

    /** Names each of the 6 parts where the value is made. */
    public static Builder builder() {
        return new Builder();
    }

    /** The parts by name; {@link #build} checks them as the constructor does. */
    public static final class Builder {
        private byte[] request;
        private String statusLine;
        private List<Header> responseHeaders = List.of();
        private String remoteIp;
        private byte[] payload;
        private boolean payloadTruncated;

        private Builder() {}

        public Builder request(byte[] value) {
            request = value;
            return this;
        }

        public Builder statusLine(String value) {
            statusLine = value;
            return this;
        }

        public Builder responseHeaders(List<Header> value) {
            responseHeaders = value;
            return this;
        }

        public Builder remoteIp(String value) {
            remoteIp = value;
            return this;
        }

        public Builder payload(byte[] value) {
            payload = value;
            return this;
        }

        public Builder payloadTruncated(boolean value) {
            payloadTruncated = value;
            return this;
        }

        public WireExchange build() {
            return new WireExchange(request, statusLine, responseHeaders, remoteIp, payload, payloadTruncated);
        }
    }
}
