package io.spiderling.core.testing;

import io.spiderling.core.fetch.FailureKind;
import io.spiderling.core.fetch.FetchRequest;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.port.PageFetcher;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link PageFetcher} that answers from a script: per URL, a queue of answers (the last one repeats). A URL with no
 * script answers 404. Every request is recorded with the clock's time, as a site's log would.
 */
public final class ScriptedFetcher implements PageFetcher {

    /** One request as the "site" saw it. */
    public record Seen(FetchRequest request, Instant at) {}

    private final Clock clock;
    private final Map<String, Deque<FetchResult>> script = new HashMap<>();
    private final List<Seen> seen = new ArrayList<>();

    public ScriptedFetcher(Clock clock) {
        this.clock = clock;
    }

    /** Replaces the URL's script: these answers in turn, the last one from then on. */
    public synchronized ScriptedFetcher answer(String url, FetchResult... results) {
        script.put(url, new ArrayDeque<>(List.of(results)));
        return this;
    }

    public static FetchResult.Response response(String url, int status, String body, Map<String, String> headers) {
        return FetchResult.Response.builder().status(status).headers(headers)
                .body(body.getBytes(StandardCharsets.UTF_8)).truncated(false).finalUrl(url)
                .timeToFirstByte(Duration.ofMillis(5)).total(Duration.ofMillis(10)).build();
    }

    public static FetchResult.Response ok(String url, String body) {
        return response(url, 200, body, Map.of("content-type", "text/html"));
    }

    public static FetchResult.Response status(String url, int status) {
        return response(url, status, "", Map.of());
    }

    public static FetchResult.Response redirect(String url, int status, String location) {
        return response(url, status, "", Map.of("location", location));
    }

    /**
     * Sends nothing, as the real fetcher does, when the clock is past the request's send deadline: the site does not
     * see it, and the answer is a {@code late} failure.
     */
    @Override
    public synchronized FetchResult fetch(FetchRequest request) {
        if (request.send().isPresent() && clock.instant().isAfter(request.send().get().by())) {
            return new FetchResult.Failure(FailureKind.LATE, "past its send deadline", Duration.ZERO);
        }
        seen.add(new Seen(request, clock.instant()));
        Deque<FetchResult> answers = script.get(request.url());
        if (answers == null || answers.isEmpty()) {
            return status(request.url(), 404);
        }
        return answers.size() > 1 ? answers.poll() : answers.peek();
    }

    public synchronized List<Seen> seen() {
        return List.copyOf(seen);
    }

    public synchronized List<String> urls() {
        return seen.stream().map(s -> s.request().url()).toList();
    }
}
