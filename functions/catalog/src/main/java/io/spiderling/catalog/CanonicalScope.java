package io.spiderling.catalog;

/** Which canonical links extraction follows ({@link ConfigKeys#EXTRACT_CANONICAL_SCOPE}). */
public enum CanonicalScope implements ConfigChoice {
    /** Only a canonical URL on the page's own site. */
    SAME_SITE("same-site"),
    /** A canonical URL on any site. */
    ANY_SITE("any-site");

    private final String wireName;

    CanonicalScope(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }
}
