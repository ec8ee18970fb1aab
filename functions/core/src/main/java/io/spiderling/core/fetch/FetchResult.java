package io.spiderling.core.fetch;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** What one GET produced: a response of any status, or a failure to get one. */
public sealed interface FetchResult {

    Duration total();

    /**
     * @param headers the response headers that matter downstream, lower-case names (content-type, etag, …)
     * @param truncated the body was cut at the configured cap
     * @param finalUrl the URL that answered, after redirects
     * @param redirects the URLs that redirected on the way to {@code finalUrl}, in order; empty when the first answered
     * @param connect time until the request was written (a connection open); zero when unknown, or when the request
     *     was held until its send window ({@link FetchRequest#send}) with its connection already open
     * @param exchange the exchange as it went over the wire, when the request asked for a capture and the fetcher
     *     could take one
     */
    record Response(int status, Map<String, String> headers, byte[] body, boolean truncated, String finalUrl,
            Duration timeToFirstByte, Duration total, List<String> redirects, Duration connect,
            Optional<WireExchange> exchange) implements FetchResult {

        public Response {
            headers = Map.copyOf(headers);
            Objects.requireNonNull(body, "body");
            Objects.requireNonNull(finalUrl, "finalUrl");
            redirects = List.copyOf(redirects);
            Objects.requireNonNull(connect, "connect");
            Objects.requireNonNull(exchange, "exchange");
        }

        /** The same response, with its exchange as captured. */
        public Response withExchange(WireExchange value) {
            return new Response(status, headers, body, truncated, finalUrl, timeToFirstByte, total, redirects, connect,
                    Optional.of(value));
        }

        public boolean redirect() {
            return status >= 300 && status < 400 && headers.containsKey("location");
        }

        public boolean success() {
            return status >= 200 && status < 300;
        }

        public String contentType() {
            return headers.get("content-type");
        }

        /** Names each of the 10 parts where the value is made. */
        public static Builder builder() {
            return new Builder();
        }

        /** The parts by name; {@link #build} checks them as the constructor does. */
        public static final class Builder {
            private int status;
            private Map<String, String> headers = Map.of();
            private byte[] body;
            private boolean truncated;
            private String finalUrl;
            private Duration timeToFirstByte;
            private Duration total;
            private List<String> redirects = List.of();
            private Duration connect = Duration.ZERO;
            private Optional<WireExchange> exchange = Optional.empty();

            private Builder() {}

            public Builder status(int value) {
                status = value;
                return this;
            }

            public Builder headers(Map<String, String> value) {
                headers = value;
                return this;
            }

            public Builder body(byte[] value) {
                body = value;
                return this;
            }

            public Builder truncated(boolean value) {
                truncated = value;
                return this;
            }

            public Builder finalUrl(String value) {
                finalUrl = value;
                return this;
            }

            public Builder timeToFirstByte(Duration value) {
                timeToFirstByte = value;
                return this;
            }

            public Builder total(Duration value) {
                total = value;
                return this;
            }

            public Builder redirects(List<String> value) {
                redirects = value;
                return this;
            }

            public Builder connect(Duration value) {
                connect = value;
                return this;
            }

            public Builder exchange(Optional<WireExchange> value) {
                exchange = value;
                return this;
            }

            public Response build() {
                return new Response(status, headers, body, truncated, finalUrl, timeToFirstByte, total, redirects,
                        connect, exchange);
            }
        }
    }

    /** @param message what went wrong; for {@link FailureKind#BLOCKED}, the message names the address class */
    record Failure(FailureKind kind, String message, Duration total) implements FetchResult {

        public Failure {
            Objects.requireNonNull(kind, "kind");
        }

        /** {@code kind: message}, as records and logs show a failure. */
        public String describe() {
            return kind.wireName() + ": " + message;
        }
    }
}
