package io.spiderling.core.url;

import crawlercommons.filters.basic.BasicURLNormalizer;
import crawlercommons.filters.basic.BasicURLNormalizer.IdnNormalization;
import io.spiderling.core.url.NormalizationResult.Rejected;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a client-supplied string into the one spelling of a URL that the rest of Spiderling keys on, or says why it
 * cannot.
 *
 * <p>crawler-commons' {@link BasicURLNormalizer} does the normalizing: it lower-cases scheme and host, converts IDN
 * hosts to punycode, drops default ports, the fragment and a trailing dot on the host, resolves dot segments, collapses
 * repeated slashes, decodes percent-escapes of unreserved characters, escapes illegal ones, and sorts query
 * parameters. This class adds what it does not do: it rejects non-http(s) schemes, userinfo (which the normalizer
 * would silently drop), inputs without a scheme (which the normalizer would silently prefix with {@code http://}),
 * over-long URLs and invalid hosts or ports.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class UrlNormalizer {

    /** The longest URL accepted, before and after normalization. */
    public static final int MAX_LENGTH = 2048;

    // Rejection reasons, shared with NormalizedUrl.check; clients read them, so keep them stable.
    static final String MISSING_URL = "missing URL";
    static final String MALFORMED = "malformed URL";
    static final String MISSING_SCHEME = "missing scheme";
    static final String UNSUPPORTED_SCHEME = "unsupported scheme: ";
    static final String USERINFO = "userinfo not allowed";
    static final String MISSING_HOST = "missing host";
    private static final String TOO_LONG = "longer than " + MAX_LENGTH + " characters";

    /** The scheme and, when present, the authority (everything between "//" and the path, query or fragment). */
    private static final Pattern SCHEME_AND_AUTHORITY =
            Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*):(?://([^/?#]*))?");

    private final BasicURLNormalizer basic;

    private UrlNormalizer(BasicURLNormalizer basic) {
        this.basic = basic;
    }

    public static UrlNormalizer create() {
        return new UrlNormalizer(
                BasicURLNormalizer.newBuilder().idnNormalization(IdnNormalization.PUNYCODE).build());
    }

    /** Never throws; every input, {@code null} included, gets a decision. */
    public NormalizationResult normalize(String raw) {
        if (raw == null) {
            return new Rejected(null, MISSING_URL);
        }
        String input = raw.strip();
        if (input.isEmpty()) {
            return new Rejected(raw, "empty URL");
        }
        if (input.length() > MAX_LENGTH) {
            return new Rejected(raw, TOO_LONG);
        }
        if (input.codePoints().anyMatch(c -> Character.getType(c) == Character.SURROGATE)) {
            // an unpaired surrogate (a JSON "\ud83d" escape can make one) has no UTF-8 form: escaping would make it '?'
            return new Rejected(raw, MALFORMED);
        }
        Matcher head = SCHEME_AND_AUTHORITY.matcher(input);
        if (!head.lookingAt()) {
            return new Rejected(raw, MISSING_SCHEME);
        }
        String scheme = head.group(1).toLowerCase(Locale.ROOT);
        if (!NormalizedUrl.isSupportedScheme(scheme)) {
            return new Rejected(raw, UNSUPPORTED_SCHEME + scheme);
        }
        String authority = head.group(2);
        if (authority != null && authority.indexOf('@') >= 0) {
            return new Rejected(raw, USERINFO);
        }
        String normalized;
        try {
            normalized = basic.filter(input);
        } catch (RuntimeException e) {
            normalized = null; // the normalizer catches what it expects; anything else is still a malformed URL
        }
        if (normalized == null) {
            return new Rejected(raw, MALFORMED);
        }
        if (normalized.length() > MAX_LENGTH) {
            return new Rejected(raw, TOO_LONG);
        }
        return NormalizedUrl.check(normalized, raw);
    }
}
