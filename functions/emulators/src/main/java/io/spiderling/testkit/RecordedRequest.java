package io.spiderling.testkit;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One request a {@link LocalSite} received.
 *
 * @param host the address of the site that received it, such as {@code 127.0.0.2}
 * @param method the HTTP method
 * @param path the raw path, with the query string if there was one
 * @param headers the request headers; names are case-insensitive, as in HTTP
 * @param receivedAt when it arrived, by the sites' clock
 */
public record RecordedRequest(
        String host, String method, String path, Map<String, List<String>> headers, Instant receivedAt) {

    public RecordedRequest {
        TreeMap<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.forEach((name, values) -> copy.put(name, List.copyOf(values)));
        headers = Collections.unmodifiableMap(copy);
    }

    /** The first value of the header {@code name}, in any case. */
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name)).flatMap(values -> values.stream().findFirst());
    }
}
