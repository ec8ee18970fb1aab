package io.spiderling.core.signing;

import java.util.Locale;
import java.util.Objects;

/**
 * One covered component of a signature (RFC 9421 section 2): a field name or a derived component such as
 * {@code @authority}, with the {@code req} flag for a request's component covered by a response's signature.
 */
public record CoveredComponent(String name, boolean req) {

    public static final CoveredComponent AUTHORITY = of("@authority");

    public CoveredComponent {
        Objects.requireNonNull(name, "name");
        if (!name.equals(name.toLowerCase(Locale.ROOT)) || name.isEmpty()) {
            throw new IllegalArgumentException("component names are lower case: " + name);
        }
    }

    public static CoveredComponent of(String name) {
        return new CoveredComponent(name, false);
    }

    /** The same component of the request, covered by a response's signature ({@code ;req}, RFC 9421 2.4). */
    public CoveredComponent ofRequest() {
        return new CoveredComponent(name, true);
    }

    /** As it appears in the inner list and in the signature base: an sf-string with its parameters. */
    public String serialized() {
        return StructuredFields.string(name) + (req ? ";req" : "");
    }
}
