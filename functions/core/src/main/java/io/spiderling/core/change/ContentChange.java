package io.spiderling.core.change;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A fetch's content next to the copy before it, by their change digests (ADR 18: what a reader sees, not the raw
 * bytes).
 *
 * @param digest the change digest of this content
 * @param previousDigest the change digest of the copy before it; empty when there was none
 * @param previousFetchedAt when the copy before it was fetched; empty when there was none
 */
public record ContentChange(ChangeState state, String digest, Optional<String> previousDigest,
        Optional<Instant> previousFetchedAt) {

    public ContentChange {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(digest, "digest");
        Objects.requireNonNull(previousDigest, "previousDigest");
        Objects.requireNonNull(previousFetchedAt, "previousFetchedAt");
        if (previousDigest.isEmpty() != (state == ChangeState.NEW)) {
            throw new IllegalArgumentException("a previous digest exists exactly when the content is not new");
        }
    }

    /**
     * Compares {@code digest} with the copy before it: new without one, unchanged when the digests are equal, else
     * changed.
     */
    public static ContentChange of(String digest, Optional<String> previousDigest, Optional<Instant> previousFetchedAt) {
        ChangeState state = previousDigest.isEmpty() ? ChangeState.NEW
                : previousDigest.get().equals(digest) ? ChangeState.UNCHANGED : ChangeState.CHANGED;
        return new ContentChange(state, digest, previousDigest, previousDigest.isEmpty() ? Optional.empty()
                : previousFetchedAt);
    }

    /** The site answered 304 to a request for the copy fetched at {@code copyFetchedAt}, of change digest {@code digest}. */
    public static ContentChange notModified(String digest, Instant copyFetchedAt) {
        return new ContentChange(ChangeState.UNCHANGED, digest, Optional.of(digest), Optional.of(copyFetchedAt));
    }
}
