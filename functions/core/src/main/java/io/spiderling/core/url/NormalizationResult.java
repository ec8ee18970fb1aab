package io.spiderling.core.url;

/** What {@link UrlNormalizer#normalize(String)} decided about one input. */
public sealed interface NormalizationResult {

    /**
     * The input is a fetchable URL.
     *
     * @param url its normal form, the key Spiderling deduplicates, stores and rate-limits on
     * @param request the URL to request: the input as a browser would send it
     */
    record Accepted(NormalizedUrl url, RequestUrl request) implements NormalizationResult {}

    /**
     * The input cannot be fetched.
     *
     * @param input the input exactly as given, possibly {@code null}
     * @param reason a short, stable, human-readable reason, such as {@code "unsupported scheme: ftp"}
     */
    record Rejected(String input, String reason) implements NormalizationResult {}
}
