package io.spiderling.core.batch;

/**
 * A submitted URL that will not be fetched.
 *
 * @param url the URL as the client sent it, possibly {@code null}
 * @param reason a short human-readable reason, e.g. {@code "unsupported scheme: ftp"}
 */
public record Rejection(String url, String reason) {}
