package io.spiderling.core.batch;

import java.util.Arrays;

/** The life of one accepted URL in one batch: queued, then exactly one terminal state. */
public enum ItemState {
    QUEUED("queued"),
    FETCHED("fetched"),
    NOT_MODIFIED("not-modified"),
    SKIPPED("skipped"),
    DISALLOWED("disallowed"),
    FAILED("failed"),
    CANCELLED("cancelled"),
    INVALID("invalid");

    private final String wireName;

    ItemState(String wireName) {
        this.wireName = wireName;
    }

    /** The name used in storage and in the API. */
    public String wireName() {
        return wireName;
    }

    public boolean terminal() {
        return this != QUEUED;
    }

    public static ItemState fromWireName(String name) {
        return Arrays.stream(values())
                .filter(s -> s.wireName.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown item state: " + name));
    }
}
