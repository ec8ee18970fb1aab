package io.spiderling.core.url;

import io.spiderling.core.content.Hashing;
import java.util.regex.Pattern;

/**
 * The unit of politeness: URLs with the same site key share one rate limit, one FIFO message group and one frontier
 * queue. For now it is the lower-case host without the port; an ADR may switch it to the registrable domain, which is
 * why callers should derive it here rather than from {@link NormalizedUrl#host()}.
 */
public record SiteKey(String value) {

    private static final int MAX_GROUP_ID_LENGTH = 128;
    /** What SQS allows in a MessageGroupId: alphanumerics and ASCII punctuation. */
    private static final Pattern GROUP_ID = Pattern.compile("[A-Za-z0-9!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~]+");

    public SiteKey {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("site key must not be blank");
        }
    }

    public static SiteKey of(NormalizedUrl url) {
        return new SiteKey(url.host());
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
}
