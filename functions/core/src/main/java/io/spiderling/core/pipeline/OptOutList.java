package io.spiderling.core.pipeline;

import io.spiderling.core.port.OptOutStore;
import io.spiderling.core.url.SiteKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The one list of sites never to be contacted, which the fetcher reads: the operator's file
 * ({@code spiderling.fetch.opt-out-file}) and the sites opted out over the API ({@link OptOutStore}), together.
 *
 * <p>Precedence: the file always wins. A site the file lists is opted out whatever the API says, and cannot be taken
 * off the list over the API ({@link Removal.InFile}); the API adds sites on top of the file.
 *
 * <p>The API's part is read at most once every {@code cacheFor} per instance, whole (one query, however many URLs
 * are fetched), so an opt-out applies everywhere within that time, and the many fetch invocations never read one
 * key per URL. Thread-safe.
 */
public final class OptOutList {

    /** Where a listed site comes from. */
    public enum Source {
        FILE, API
    }

    /** A listed site; {@code since} is when the API listed it, empty for the file. */
    public record Listed(SiteKey site, Source source, Optional<Instant> since) {}

    private final Set<SiteKey> file;
    private final OptOutStore store;
    private final Clock clock;
    private final Duration cacheFor;
    private Instant readAt = Instant.MIN;
    private Set<SiteKey> cached = Set.of();

    private OptOutList(Set<SiteKey> file, OptOutStore store, Clock clock, Duration cacheFor) {
        this.file = Set.copyOf(file);
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.cacheFor = Objects.requireNonNull(cacheFor, "cacheFor");
    }

    /** The file's sites alone. */
    public static OptOutList of(Set<SiteKey> file) {
        return new OptOutList(file, OptOutStore.NONE, Clock.systemUTC(), Duration.ZERO);
    }

    /** The file's sites and the API's, the API's read again after {@code cacheFor}. */
    public static OptOutList of(Set<SiteKey> file, OptOutStore store, Clock clock, Duration cacheFor) {
        return new OptOutList(file, store, clock, cacheFor);
    }

    /** Whether {@code site} is opted out, by the file or by the API (as read within the last {@code cacheFor}). */
    public boolean contains(SiteKey site) {
        return file.contains(site) || api().contains(site);
    }

    private synchronized Set<SiteKey> api() {
        if (store == OptOutStore.NONE) {
            return Set.of();
        }
        Instant now = clock.instant();
        if (readAt.equals(Instant.MIN) || !now.isBefore(readAt.plus(cacheFor))) {
            cached = Set.copyOf(store.sites().keySet());
            readAt = now;
        }
        return cached;
    }

    /** Every listed site, read now, in site order; a site in both is shown as the file's. */
    public Map<SiteKey, Listed> all() {
        Map<SiteKey, Listed> all = new TreeMap<>(java.util.Comparator.comparing(SiteKey::value));
        store.sites().forEach((site, since) -> all.put(site, new Listed(site, Source.API, Optional.of(since))));
        file.forEach(site -> all.put(site, new Listed(site, Source.FILE, Optional.empty())));
        return all;
    }

    /** Opts {@code site} out over the API; it applies to this instance at once, to others within the cache time. */
    public Listed add(SiteKey site) {
        if (file.contains(site)) {
            return new Listed(site, Source.FILE, Optional.empty());
        }
        Instant now = clock.instant();
        store.add(site, now);
        forget();
        return new Listed(site, Source.API, Optional.of(now));
    }

    /** What {@link #remove} did. */
    public sealed interface Removal {
        record Removed(SiteKey site) implements Removal {}

        record NotListed(SiteKey site) implements Removal {}

        /** The file lists it: the file wins, so it stays opted out; only the file's owner can take it off. */
        record InFile(SiteKey site) implements Removal {}
    }

    public Removal remove(SiteKey site) {
        if (file.contains(site)) {
            return new Removal.InFile(site);
        }
        boolean removed = store.remove(site);
        forget();
        return removed ? new Removal.Removed(site) : new Removal.NotListed(site);
    }

    private synchronized void forget() {
        readAt = Instant.MIN;
    }
}
