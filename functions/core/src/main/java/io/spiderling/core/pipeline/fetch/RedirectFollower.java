package io.spiderling.core.pipeline.fetch;

import io.spiderling.core.fetch.FetchRequest;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.port.PageFetcher;
import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.UrlNormalizer;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The part of following a redirect chain that a page and robots.txt share: each hop is sent through a politeness
 * session's gate, in the slot it grants, and a redirect's {@code Location} is resolved against the URL that was
 * requested. What a chain does with the next hop (how many to follow, which gate, where it continues) is its own:
 * the page's is in {@code FetchPage}, robots.txt's in {@link SitePoliteness}.
 */
final class RedirectFollower {

    /** What an answer to one hop means for the chain. */
    sealed interface Next {
        /** Not a redirect: the chain ends with this answer. */
        record Final(FetchResult result) implements Next {}

        /** A redirect whose {@code Location} is no URL that may be fetched. */
        record Invalid(FetchResult.Response response, String location) implements Next {}

        /** A redirect to {@code hop}, the chain continued there. */
        record Redirect(FetchResult.Response response, Hop hop) implements Next {}
    }

    private final UrlNormalizer normalizer;
    private final PageFetcher fetcher;

    RedirectFollower(UrlNormalizer normalizer, PageFetcher fetcher) {
        this.normalizer = Objects.requireNonNull(normalizer, "normalizer");
        this.fetcher = Objects.requireNonNull(fetcher, "fetcher");
    }

    /** Sends {@code request} for {@code hop} through {@code gate}, written within the window of the slot granted. */
    SitePoliteness.Sent send(SitePoliteness.Session session, Hop hop, Supplier<SitePoliteness.Gate> gate,
            FetchRequest request) {
        return session.send(gate, go -> fetcher.fetch(request.withSend(go.window())), hop.url().urlHash());
    }

    /** Where the answer to {@code hop} leads: nowhere, an invalid target, or the next hop. */
    Next next(Hop hop, FetchResult result) {
        if (!(result instanceof FetchResult.Response r) || !r.redirect()) {
            return new Next.Final(result);
        }
        String location = r.headers().get("location");
        return switch (normalizer.resolve(hop.request().value(), location).orElse(null)) {
            case null -> new Next.Invalid(r, location);
            case NormalizationResult.Accepted target -> new Next.Redirect(r, hop.next(target));
        };
    }
}
