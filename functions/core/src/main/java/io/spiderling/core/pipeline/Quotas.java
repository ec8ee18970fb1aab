package io.spiderling.core.pipeline;

import io.spiderling.core.port.QuotaStore;
import io.spiderling.core.quota.Quota;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * The gate every way into the pipeline asks before it accepts URLs: one conditional write per batch, charged to the
 * client's UTC day. The limit is the client's own (set over the API) or else the deployment's default; 0 is no limit,
 * and then nothing is read or written beyond the client's limit.
 */
public final class Quotas {

    /** No quota at all: nothing is read or written. */
    public static final Quotas UNLIMITED = new Quotas(null, 0, Clock.systemUTC());

    private final QuotaStore store;
    private final long defaultLimit;
    private final Clock clock;

    /**
     * @param defaultLimit URLs a day for a client with no limit of its own; 0 for none
     */
    public Quotas(QuotaStore store, long defaultLimit, Clock clock) {
        if (defaultLimit < 0) {
            throw new IllegalArgumentException("defaultLimit must not be negative, was " + defaultLimit);
        }
        this.store = store;
        this.defaultLimit = defaultLimit;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A charge that passed, to be taken back if its batch turns out to exist already. */
    public record Charged(String client, LocalDate day, long urls) {}

    /**
     * Counts {@code urls} against {@code client}'s day, if they fit.
     *
     * @return {@link Quota.Decision.Allowed} (counted), {@link Quota.Decision.Unlimited} (nothing counted) or
     *     {@link Quota.Decision.OverQuota} (nothing counted)
     */
    public Quota.Decision charge(String client, long urls) {
        if (store == null) {
            return new Quota.Decision.Unlimited();
        }
        long limit = limit(client);
        Instant now = clock.instant();
        if (limit == 0) {
            return new Quota.Decision.Unlimited();
        }
        return switch (store.charge(client, Quota.day(now), urls, limit)) {
            case QuotaStore.Charge.Charged c -> new Quota.Decision.Allowed(limit, c.used(), Quota.resetAt(now));
            case QuotaStore.Charge.Refused r -> Quota.decide(limit, r.used(), urls, now);
        };
    }

    /** Whether any limit applies to {@code client}: when none does, there is nothing to count. */
    public boolean limits(String client) {
        return store != null && limit(client) != 0;
    }

    /** Takes back a charge of {@link #charge} made at {@code at}. */
    public void refund(String client, long urls, Instant at) {
        if (store != null && urls > 0) {
            store.refund(client, Quota.day(at), urls);
        }
    }

    /**
     * Whether {@code client} may start anything today: {@link Quota.Decision.OverQuota} once its day is used up. Asked
     * where the count of URLs is not known yet (an upload about to start).
     */
    public Quota.Decision room(String client) {
        if (store == null) {
            return new Quota.Decision.Unlimited();
        }
        long limit = limit(client);
        if (limit == 0) {
            return new Quota.Decision.Unlimited();
        }
        Instant now = clock.instant();
        return Quota.decide(limit, store.used(client, Quota.day(now)), 1, now);
    }

    /**
     * What {@code client}'s quota stands at today (the UTC day before {@code resetAt}), for operators.
     *
     * @param limit the limit that applies (0: none); {@code own} whether it is the client's own or the default
     */
    public record Usage(String client, long limit, boolean own, long used, Instant resetAt) {}

    public Usage usage(String client) {
        Instant now = clock.instant();
        LocalDate day = Quota.day(now);
        if (store == null) {
            return new Usage(client, 0, false, 0, Quota.resetAt(now));
        }
        var own = store.limit(client);
        return new Usage(client, own.orElse(defaultLimit), own.isPresent(), store.used(client, day),
                Quota.resetAt(now));
    }

    /** Sets {@code client}'s own limit; 0 is unlimited. */
    public void setLimit(String client, long urlsPerDay) {
        if (urlsPerDay < 0) {
            throw new IllegalArgumentException("urlsPerDay must not be negative, was " + urlsPerDay);
        }
        if (store == null) {
            throw new IllegalStateException("this deployment keeps no quotas");
        }
        store.setLimit(client, urlsPerDay);
    }

    private long limit(String client) {
        return store.limit(client).orElse(defaultLimit);
    }
}
