package io.spiderling.core.port;

import java.time.LocalDate;
import java.util.Optional;

/**
 * Each client's URLs a day: the limit an operator set for it, and the URLs counted against each UTC day. A batch is
 * counted in one conditional write ({@link #charge}), never one per URL, so a client's day holds as many batches a
 * second as one key takes writes.
 */
public interface QuotaStore {

    /** The limit an operator set for {@code client}; empty when none was (the deployment's default applies). */
    Optional<Long> limit(String client);

    /** Sets {@code client}'s limit; 0 means unlimited. */
    void setLimit(String client, long urlsPerDay);

    /** The URLs counted against {@code client} on {@code day}. */
    long used(String client, LocalDate day);

    /**
     * Counts {@code urls} against {@code client}'s {@code day} if the day's count stays within {@code limit}, at once
     * and whatever runs beside it: two charges that fit only one at a time never both pass.
     */
    Charge charge(String client, LocalDate day, long urls, long limit);

    /** Takes back {@code urls} counted on {@code day} (a charge for a batch that turned out to exist already). */
    void refund(String client, LocalDate day, long urls);

    sealed interface Charge {
        /** @param used the day's count with these URLs */
        record Charged(long used) implements Charge {}

        /** Nothing was counted. @param used the day's count found */
        record Refused(long used) implements Charge {}
    }
}
