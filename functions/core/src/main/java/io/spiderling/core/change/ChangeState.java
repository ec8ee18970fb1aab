package io.spiderling.core.change;

/** What a fetch's content is next to the copy before it. */
public enum ChangeState {
    /** No copy before it had a change digest: the first fetch, or the first since change digests were kept. */
    NEW("new"),
    /** Its change digest differs from the copy before it. */
    CHANGED("changed"),
    /** The site answered 304, or the change digest is the copy before it's. */
    UNCHANGED("unchanged");

    private final String wireName;

    ChangeState(String wireName) {
        this.wireName = wireName;
    }

    /** The name stored and shown: {@code new}, {@code changed}, {@code unchanged}. */
    public String wireName() {
        return wireName;
    }
}
