package io.spiderling.core.fetch;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/** What one GET produced: a response of any status, or a failure to get one. */
public sealed interface FetchResult {

    Duration total();

    /**
     * @param headers the response headers that matter downstream, lower-case names (content-type, etag, …)
     * @param truncated the body was cut at the configured cap
     * @param finalUrl the URL that answered, after redirects
     */
    record Response(int status, Map<String, String> headers, byte[] body, boolean truncated, String finalUrl,
            Duration timeToFirstByte, Duration total) implements FetchResult {

        public Response {
            headers = Map.copyOf(headers);
            Objects.requireNonNull(body, "body");
            Objects.requireNonNull(finalUrl, "finalUrl");
        }

        public boolean success() {
            return status >= 200 && status < 300;
        }

        public String contentType() {
            return headers.get("content-type");
        }
    }

    /** @param kind a stable word for the class of failure: connect, timeout, dns, tls, io */
    record Failure(String kind, String message, Duration total) implements FetchResult {}
}
