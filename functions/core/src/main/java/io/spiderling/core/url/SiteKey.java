package io.spiderling.core.url;

import crawlercommons.domains.EffectiveTldFinder;
import io.spiderling.core.content.Hashing;
import io.spiderling.core.net.Ipv4Spelling;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The unit of politeness: URLs with the same site key share one rate limit, one FIFO message group and one frontier
 * queue. Callers derive it here, never from {@link NormalizedUrl#host()}.
 *
 * <p>The key is the host's registrable domain by the whole Public Suffix List, private section included
 * (docs/adr/0004-site-key.md): {@code www.example.co.uk} and {@code shop.example.co.uk} are {@code example.co.uk},
 * while {@code alice.github.io} and {@code bob.github.io} are two sites. The host itself is the key when it has no
 * registrable domain: an IP literal, a single label such as {@code localhost}, or a public suffix such as
 * {@code github.io}. A host under a top-level domain the list does not know gets the list's implicit {@code *} rule,
 * so {@code www.site.test} is {@code site.test}. Scheme and port never matter.
 */
public record SiteKey(String value) {

    /** SQS allows 128; four are left for a {@code #k} suffix (see {@code FetchJob#messageGroupId}). */
    private static final int MAX_GROUP_ID_LENGTH = 124;
    /** What SQS allows in a MessageGroupId: alphanumerics and ASCII punctuation. */
    private static final Pattern GROUP_ID = Pattern.compile("[A-Za-z0-9!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~]+");

    public SiteKey {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("site key must not be blank");
        }
    }

    public static SiteKey of(NormalizedUrl url) {
        return new SiteKey(siteOf(url.host()));
    }

    /**
     * The SQS FIFO MessageGroupId for this site: the value itself when SQS accepts it (at most 128 allowed
     * characters), else {@code "sha256-"} and the hex SHA-256 of the value, which is stable and never collides with a
     * host because no DNS label is that long.
     */
    public String messageGroupId() {
        if (value.length() <= MAX_GROUP_ID_LENGTH && GROUP_ID.matcher(value).matches()) {
            return value;
        }
        return "sha256-" + Hashing.sha256Hex(value);
    }

    @Override
    public String toString() {
        return value;
    }

    private static String siteOf(String rawHost) {
        // NormalizedUrl.parse and UrlNormalizer give lower case without a trailing dot; the record constructor does not
        // (the standard allows the host ".", which must stay itself)
        String host = rawHost.endsWith(".") && rawHost.length() > 1 ? rawHost.substring(0, rawHost.length() - 1)
                : rawHost;
        host = host.toLowerCase(Locale.ROOT);
        if (host.startsWith("[") || Ipv4Spelling.endsInNumber(host)) {
            return host; // an address: every address is its own site, 127.0.0.2 and 127.0.0.3 included
        }
        String domain = PublicSuffixList.registrableDomain(host);
        if (domain != null) {
            return domain;
        }
        if (PublicSuffixList.isListed(host) || host.indexOf('.') < 0) {
            return host; // the host is a public suffix (github.io, co.uk) or a single label (localhost)
        }
        // no rule matched, so the list's implicit "*" rule applies: the last label is the suffix
        return host.substring(host.lastIndexOf('.', host.lastIndexOf('.') - 1) + 1);
    }

    /**
     * crawler-commons' list, loaded once in this class's initializer. {@link EffectiveTldFinder#getInstance()} is
     * lazily created without synchronization; creating it here publishes it safely to every thread that uses this
     * class, and keeps the load (about 10,000 rules) out of the first URL's time.
     */
    private static final class PublicSuffixList {

        static {
            EffectiveTldFinder.getInstance();
        }

        /** The registrable domain, or null if the host is a public suffix or no rule of the list matches it. */
        static String registrableDomain(String host) {
            return EffectiveTldFinder.getAssignedDomain(host, true, false);
        }

        /** True if some rule of the list (ICANN or private section) matches the host. */
        static boolean isListed(String host) {
            return EffectiveTldFinder.getEffectiveTLD(host, false) != null;
        }
    }
}
