package io.spiderling.core.robots;

import io.spiderling.core.fetch.FailureKind;
import io.spiderling.core.fetch.FetchResult;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * How the adapter's fetch of {@code /robots.txt} ended, after it followed redirects (at most
 * {@link RobotsPolicy.Settings#maxRedirects()} of them). The adapter reports; {@link RobotsPolicy} decides what it
 * means.
 */
public sealed interface RobotsFetchOutcome {

    /** How many redirects were followed before this outcome. */
    int redirects();

    /**
     * The final response. When {@code status} is itself a redirect the adapter stopped following: after
     * {@code redirects} hops, or because the redirect could not be followed (no Location header).
     *
     * @param body the body as received; the policy keeps the first {@link RobotsPolicy.Settings#maxBodyBytes()}
     * @param cacheControl the {@code Cache-Control} header, if any; its {@code max-age} can shorten freshness
     */
    record Response(int status, byte[] body, Optional<String> cacheControl, int redirects)
            implements RobotsFetchOutcome {

        public Response {
            Objects.requireNonNull(body, "body");
            Objects.requireNonNull(cacheControl, "cacheControl");
            requireRedirects(redirects);
        }

        /** A response with a UTF-8 body, no Cache-Control header and no redirects. */
        public static Response of(int status, String body) {
            return new Response(status, body.getBytes(StandardCharsets.UTF_8), Optional.empty(), 0);
        }
    }

    /** @param kind the class of failure, as in {@link FetchResult.Failure} */
    record Failure(FailureKind kind, int redirects) implements RobotsFetchOutcome {

        public Failure {
            Objects.requireNonNull(kind, "kind");
            requireRedirects(redirects);
        }
    }

    /** The outcome of a fetch done with the shared {@link io.spiderling.core.port.PageFetcher}. */
    static RobotsFetchOutcome from(FetchResult result) {
        return from(result, result instanceof FetchResult.Response r ? r.redirects().size() : 0);
    }

    /** The outcome of a fetch done with the shared {@link io.spiderling.core.port.PageFetcher}, after {@code redirects} hops. */
    static RobotsFetchOutcome from(FetchResult result, int redirects) {
        return switch (result) {
            case FetchResult.Response r -> new Response(r.status(), r.body(),
                    Optional.ofNullable(r.headers().get("cache-control")), redirects);
            case FetchResult.Failure f -> new Failure(f.kind(), redirects);
        };
    }

    private static void requireRedirects(int redirects) {
        if (redirects < 0) {
            throw new IllegalArgumentException("redirects must not be negative, was " + redirects);
        }
    }
}
