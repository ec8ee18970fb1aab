package io.spiderling.core.fetch;

import java.util.Locale;

/** Why a GET produced no answer: the class of failure, which the retry policy and the rate limiter act on. */
public enum FailureKind {
    /** The connection was refused or reset. */
    CONNECT,
    /** No answer within a timeout. */
    TIMEOUT,
    /** The name did not resolve. */
    DNS,
    /** The TLS handshake failed. */
    TLS,
    /** Any other failure to read an answer: a broken body, a bad encoding, an invalid URL. */
    IO,
    /**
     * The fetcher refused to make the request: the SSRF guard refused the address, the scheme is not fetched, or a
     * body expanded past the decompression limit. Asking again gets the same refusal, and the site was not asked.
     */
    BLOCKED,
    /**
     * The request was not sent: the moment it would have been written to the connection was past its send window
     * ({@link FetchRequest#send()}), the end of its rate slot's window. The site was not asked; the URL asks for a
     * new slot.
     */
    LATE;

    /** The stable lower-case word stored and shown: {@code connect}, {@code timeout}, … */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
