package io.spiderling.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where each URL of a batch stands against what was expected of it: a pure comparison of the item states the
 * pipeline's API reports ({@code GET /batches/{id}/urls}, by wire name) with the expectations a test declared.
 *
 * @param notTerminal URLs expected to end that are still {@code queued} (or not reported at all)
 * @param mismatches URLs that ended, or stayed waiting, other than expected
 */
public record FarmOutcomes(List<String> notTerminal, List<Mismatch> mismatches) {

    /** The state an item is in before it ends. */
    public static final String QUEUED = "queued";

    public FarmOutcomes {
        notTerminal = List.copyOf(notTerminal);
        mismatches = List.copyOf(mismatches);
    }

    /** What a URL should come to. */
    public enum Expected {
        FETCHED(Set.of("fetched")),
        /**
         * The URL is also the target of a redirect another URL of the batch follows: whichever fetch comes second
         * finds a fresh copy, so the item ends either way without a second request.
         */
        FETCHED_OR_SKIPPED(Set.of("fetched", "skipped")),
        DISALLOWED(Set.of("disallowed")),
        /**
         * A second batch asks, in a spelling robots.txt allows, for a URL whose first batch asked in a disallowed
         * spelling of the same key: it shares that fetch's outcome (it joined it, or found it recorded since it was
         * created), or asks in its own spelling once that fetch has ended.
         */
        DISALLOWED_OR_FETCHED(Set.of("disallowed", "fetched")),
        FAILED(Set.of("failed")),
        /** Never ends within a run: the site's robots.txt stays unreachable, and its URLs wait (by design). */
        WAITING(Set.of(QUEUED));

        private final Set<String> states;

        Expected(Set<String> states) {
            this.states = states;
        }

        public boolean terminal() {
            return this != WAITING;
        }

        public boolean matches(String state) {
            return states.contains(state);
        }
    }

    /** @param actual the reported state; {@code null} when the API did not list the URL */
    public record Mismatch(String url, Expected expected, String actual) {}

    /**
     * Compares.
     *
     * @param expected per URL, as submitted
     * @param states per URL, the item state the API reports
     */
    public static FarmOutcomes compare(Map<String, Expected> expected, Map<String, String> states) {
        List<String> notTerminal = new ArrayList<>();
        List<Mismatch> mismatches = new ArrayList<>();
        expected.forEach((url, want) -> {
            String state = states.get(url);
            if (want.terminal() && (state == null || state.equals(QUEUED))) {
                notTerminal.add(url);
            } else if (state == null || !want.matches(state)) {
                mismatches.add(new Mismatch(url, want, state));
            }
        });
        return new FarmOutcomes(notTerminal, mismatches);
    }

    /** This comparison and {@code other}'s together: the outcomes of two batches. */
    public FarmOutcomes plus(FarmOutcomes other) {
        List<String> queued = new ArrayList<>(notTerminal);
        queued.addAll(other.notTerminal);
        List<Mismatch> wrong = new ArrayList<>(mismatches);
        wrong.addAll(other.mismatches);
        return new FarmOutcomes(queued, wrong);
    }

    /** Every URL expected to end has ended (however it ended); only the waiting ones may still be queued. */
    public boolean settled() {
        return notTerminal.isEmpty();
    }
}
