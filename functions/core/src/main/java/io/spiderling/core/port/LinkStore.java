package io.spiderling.core.port;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The link graph, indexed by target: each extracted page's outlinks are recorded under the pages they point at, so
 * the pages linking to a URL (its inlinks) can be listed without scanning every page. Pages and targets are named by
 * their URL hash, {@code NormalizedUrl.parse(url).urlHash()}.
 */
public interface LinkStore {

    /** The most targets one call may record: the caller caps a page's outlinks to at most this many. */
    int MAX_TARGETS = 1000;
    /** The largest page of {@link #inlinks}. */
    int MAX_LIMIT = 1000;

    /**
     * Records that source now links to exactly {@code targets} (normalized URLs, already capped by the caller),
     * replacing {@code previous} (what the last extraction of source recorded; may be empty). Writes only the
     * difference: puts for new targets, deletes for dropped ones. Idempotent.
     *
     * <p>Because only the difference is written, a link kept from one extraction to the next keeps the
     * {@code seenAt} of the extraction that first recorded it, and {@code previous} must be what was actually
     * recorded: call this before saving {@code targets} as the source's new outlinks, so a failed call is retried
     * with the same {@code previous}. Duplicate URLs count once.
     *
     * @throws IllegalArgumentException if {@code targets} or {@code previous} holds more than {@link #MAX_TARGETS}
     *     URLs, a URL is not a normalized http(s) URL, or {@code sourceHash} is not a URL hash
     */
    void replaceOutlinks(String sourceHash, String sourceUrl, List<String> previous, List<String> targets, Instant at);

    /**
     * Pages linking to target, ordered by source hash, a page at a time. {@code cursor} is the {@code nextCursor} of
     * the previous page; a page has a cursor when more may follow, so the last page may be empty.
     *
     * @throws IllegalArgumentException if {@code limit} is not 1 to {@link #MAX_LIMIT}, or {@code targetHash} or the
     *     cursor is not a URL hash (64 lower-case hex digits)
     */
    InlinkPage inlinks(String targetHash, Optional<String> cursor, int limit);

    /** One page linking to the target, and when that link was first recorded. */
    record Inlink(String sourceHash, String sourceUrl, Instant seenAt) {
        public Inlink {
            Objects.requireNonNull(sourceHash, "sourceHash");
            Objects.requireNonNull(sourceUrl, "sourceUrl");
            Objects.requireNonNull(seenAt, "seenAt");
        }
    }

    record InlinkPage(List<Inlink> inlinks, Optional<String> nextCursor) {
        public InlinkPage {
            inlinks = List.copyOf(inlinks);
            Objects.requireNonNull(nextCursor, "nextCursor");
        }
    }
}
