package io.spiderling.core.extract;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a page says about its own use, in its {@code X-Robots-Tag} header and its {@code <meta name="robots">} tags,
 * as far as it applies to Spiderling's agent ({@link PageDirectivesParser}). The directives are for whoever indexes or
 * archives the page downstream; Spiderling records them and honours {@code noarchive} in its WARC export
 * (docs/adr/0017-the-pages-own-directives.md).
 *
 * @param directives the directives found; {@code none} is recorded as {@code noindex} and {@code nofollow}
 * @param unavailableAfter the {@code unavailable_after} date; the earliest readable one when several are given
 * @param sources where directives that apply to the agent were found (any directive, {@code all} included): empty when
 *     the page said nothing to it
 * @param others the other directives that apply, lower case as written ({@code noimageindex},
 *     {@code max-snippet:20}), distinct, in order, at most {@value #MAX_OTHERS} of at most
 *     {@value #MAX_OTHER_LENGTH} characters
 */
public record PageDirectives(Set<Directive> directives, Optional<UnavailableAfter> unavailableAfter,
        Set<Source> sources, List<String> others) {

    static final int MAX_OTHERS = 16;
    static final int MAX_OTHER_LENGTH = 100;

    private static final PageDirectives NONE = new PageDirectives(Set.of(), Optional.empty(), Set.of(), List.of());

    /** The directives Spiderling records by name. */
    public enum Directive {
        NOINDEX, NOFOLLOW, NOARCHIVE, NOSNIPPET;

        /** The name as pages write it and the API shows it: {@code noindex}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Optional<Directive> fromWireName(String name) {
            for (Directive d : values()) {
                if (d.wireName().equals(name)) {
                    return Optional.of(d);
                }
            }
            return Optional.empty();
        }
    }

    /** Where a directive was found. */
    public enum Source {
        /** The {@code X-Robots-Tag} response header. */
        HEADER,
        /** A {@code <meta name="robots">} tag, or one named after the agent. */
        META;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Optional<Source> fromWireName(String name) {
            for (Source s : values()) {
                if (s.wireName().equals(name)) {
                    return Optional.of(s);
                }
            }
            return Optional.empty();
        }
    }

    /**
     * An {@code unavailable_after} date.
     *
     * @param text the date as written, trimmed, at most {@value #MAX_OTHER_LENGTH} characters
     * @param at the instant it names; empty when the text is no date this parser reads
     */
    public record UnavailableAfter(String text, Optional<Instant> at) {
        public UnavailableAfter {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(at, "at");
        }

        /** The date as written, read with {@link DirectiveDates#parse}. */
        public static UnavailableAfter of(String text) {
            String kept = text.strip();
            kept = kept.length() > MAX_OTHER_LENGTH ? kept.substring(0, MAX_OTHER_LENGTH) : kept;
            return new UnavailableAfter(kept, DirectiveDates.parse(kept));
        }

        /** The earlier of two: a readable date beats an unreadable one; between unreadable ones, the first. */
        UnavailableAfter earlier(UnavailableAfter other) {
            if (at.isEmpty()) {
                return other.at.isPresent() ? other : this;
            }
            return other.at.isPresent() && other.at.get().isBefore(at.get()) ? other : this;
        }
    }

    public PageDirectives {
        directives = directives == null || directives.isEmpty() ? Set.of()
                : Collections.unmodifiableSet(EnumSet.copyOf(directives));
        Objects.requireNonNull(unavailableAfter, "unavailableAfter");
        sources = sources == null || sources.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(sources));
        others = others == null ? List.of() : List.copyOf(others);
    }

    /** Nothing said. */
    public static PageDirectives none() {
        return NONE;
    }

    public boolean has(Directive directive) {
        return directives.contains(directive);
    }

    /** Whether the page asks not to be archived: the WARC export leaves it out unless told otherwise. */
    public boolean noarchive() {
        return has(Directive.NOARCHIVE);
    }

    /** Whether nothing that applies to the agent was found. */
    public boolean isEmpty() {
        return sources.isEmpty() && directives.isEmpty() && unavailableAfter.isEmpty() && others.isEmpty();
    }

    /** Both pages' directives, as a crawler reading both the header and the tags obeys the most restrictive. */
    public PageDirectives union(PageDirectives other) {
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        Builder union = builder();
        directives.forEach(union::directive);
        other.directives.forEach(union::directive);
        unavailableAfter.ifPresent(union::unavailableAfter);
        other.unavailableAfter.ifPresent(union::unavailableAfter);
        sources.forEach(union::source);
        other.sources.forEach(union::source);
        others.forEach(union::other);
        other.others.forEach(union::other);
        return union.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects directives one at a time, keeping the record's bounds: the first of each, the earliest date. */
    public static final class Builder {
        private final Set<Directive> directives = EnumSet.noneOf(Directive.class);
        private UnavailableAfter unavailableAfter;
        private final Set<Source> sources = EnumSet.noneOf(Source.class);
        private final List<String> others = new ArrayList<>();

        private Builder() {}

        public Builder directive(Directive value) {
            directives.add(value);
            return this;
        }

        /** Keeps the earliest readable date of those given. */
        public Builder unavailableAfter(UnavailableAfter value) {
            unavailableAfter = unavailableAfter == null ? value : unavailableAfter.earlier(value);
            return this;
        }

        public Builder source(Source value) {
            sources.add(value);
            return this;
        }

        /** Adds another directive unless it is there already, too long, or one too many. */
        public Builder other(String value) {
            if (others.size() < MAX_OTHERS && value.length() <= MAX_OTHER_LENGTH && !others.contains(value)) {
                others.add(value);
            }
            return this;
        }

        public PageDirectives build() {
            PageDirectives built = new PageDirectives(directives, Optional.ofNullable(unavailableAfter), sources,
                    others);
            return built.isEmpty() ? NONE : built;
        }
    }
}
