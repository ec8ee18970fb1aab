package io.spiderling.core.batch;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One URL of a batch as the status API lists it.
 *
 * @param kind a page to fetch, or a sitemap to read; {@code urlHash} is then its item key ({@link ItemKind#key})
 * @param reason why the item ended; empty while it is queued, and for an item ended before reasons were stored
 * @param detail what a person reads beside the reason: the robots.txt rule, the HTTP status, the error
 */
public record BatchItem(String url, String urlHash, ItemKind kind, ItemState state, Optional<Reason> reason,
        Optional<String> detail, Optional<Instant> endedAt) {

    public BatchItem {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(urlHash, "urlHash");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(endedAt, "endedAt");
        if (reason.isPresent() && reason.get().state() != state) {
            throw new IllegalArgumentException("reason " + reason.get().code() + " does not end in " + state.wireName());
        }
    }

    /** Names each of the 7 parts where the value is made. */
    public static Builder builder() {
        return new Builder();
    }

    /** The parts by name; unset optional parts are empty. */
    public static final class Builder {
        private String url;
        private String urlHash;
        private ItemKind kind = ItemKind.PAGE;
        private ItemState state;
        private Optional<Reason> reason = Optional.empty();
        private Optional<String> detail = Optional.empty();
        private Optional<Instant> endedAt = Optional.empty();

        private Builder() {}

        public Builder url(String value) {
            url = value;
            return this;
        }

        public Builder urlHash(String value) {
            urlHash = value;
            return this;
        }

        public Builder kind(ItemKind value) {
            kind = value;
            return this;
        }

        public Builder state(ItemState value) {
            state = value;
            return this;
        }

        public Builder reason(Optional<Reason> value) {
            reason = value;
            return this;
        }

        public Builder detail(Optional<String> value) {
            detail = value;
            return this;
        }

        public Builder endedAt(Optional<Instant> value) {
            endedAt = value;
            return this;
        }

        public BatchItem build() {
            return new BatchItem(url, urlHash, kind, state, reason, detail, endedAt);
        }
    }
}
