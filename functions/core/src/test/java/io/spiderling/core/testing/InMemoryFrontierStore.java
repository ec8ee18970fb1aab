package io.spiderling.core.testing;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.frontier.FrontierEntry;
import io.spiderling.core.port.FrontierStore;
import io.spiderling.core.url.SiteKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * A {@link FrontierStore} in maps, with the port's rules: one entry per (site, partition, batch, URL), the cap, a
 * counter per site with entries (deleted at zero only on request) that knows the site's spread over partitions, and
 * sweep marks spread over {@value #SHARDS} shards.
 */
public final class InMemoryFrontierStore implements FrontierStore {

    private static final int SHARDS = 4;
    private static final Comparator<SweepMark> OLDEST_FIRST =
            Comparator.comparing(SweepMark::at).thenComparing(m -> m.site().value());

    private record Released(FrontierEntry entry, Instant at) {}

    /** A counter's own fields; its counts are the sizes of the site's maps. */
    private record Counter(Optional<Instant> progressAt, Optional<Instant> checkAt, int spread) {
        static final Counter NEW = new Counter(Optional.empty(), Optional.empty(), 1);

        Counter spreadTo(int partition) {
            return new Counter(progressAt, checkAt, Math.max(spread, partition + 1));
        }
    }

    private final Map<SiteKey, Map<String, FrontierEntry>> pending = new HashMap<>();
    private final Map<SiteKey, Map<String, Released>> released = new HashMap<>();
    private final Map<SiteKey, Counter> counters = new HashMap<>();
    private final List<TreeSet<SweepMark>> marks = new ArrayList<>();
    /** Run after every {@link #due} read: a test's clock may move while a release runs, as a slow store's would. */
    private Runnable afterDue = () -> {};

    public InMemoryFrontierStore() {
        for (int i = 0; i < SHARDS; i++) {
            marks.add(new TreeSet<>(OLDEST_FIRST));
        }
    }

    @Override
    public synchronized boolean park(FrontierEntry entry) {
        String key = key(entry);
        if (pendingOf(entry.site()).containsKey(key) || releasedOf(entry.site()).containsKey(key)) {
            return false;
        }
        pendingOf(entry.site()).put(key, entry);
        counted(entry);
        return true;
    }

    @Override
    public synchronized Set<SiteKey> parkReleased(List<FrontierEntry> entries, Instant now, ToIntFunction<SiteKey> cap) {
        Map<SiteKey, List<FrontierEntry>> bySite = new LinkedHashMap<>();
        entries.forEach(e -> bySite.computeIfAbsent(e.site(), s -> new ArrayList<>()).add(e));
        Set<SiteKey> parked = new LinkedHashSet<>();
        bySite.forEach((site, its) -> {
            if (!pendingOf(site).isEmpty() || releasedOf(site).size() + its.size() > cap.applyAsInt(site)
                    || its.stream().anyMatch(e -> releasedOf(site).containsKey(key(e)))) {
                return;
            }
            for (FrontierEntry e : its) {
                releasedOf(site).put(key(e), new Released(e.with(e.attempt(), e.notBefore(), e.send() + 1), now));
                counted(e);
            }
            parked.add(site);
        });
        return parked;
    }

    @Override
    public synchronized List<FrontierEntry> due(SiteKey site, int spread, Instant now, int limit) {
        List<FrontierEntry> due = pendingOf(site).values().stream()
                .filter(e -> e.partition() < spread && !e.notBefore().isAfter(now))
                .sorted(Comparator.comparingLong(FrontierEntry::order))
                .limit(limit)
                .toList();
        afterDue.run();
        return due;
    }

    /** Runs {@code action} after every read of due entries from now on. */
    public synchronized void afterDue(Runnable action) {
        afterDue = action;
    }

    @Override
    public synchronized Optional<SiteState> state(SiteKey site) {
        Counter c = counters.get(site);
        return c == null ? Optional.empty()
                : Optional.of(new SiteState(pendingOf(site).size(), releasedOf(site).size(), c.progressAt(),
                        c.checkAt(), c.spread()));
    }

    @Override
    public synchronized boolean forget(SiteKey site, SiteState seen) {
        Optional<SiteState> now = state(site);
        if (now.isEmpty() || !now.get().empty() || !now.get().checkAt().equals(seen.checkAt())) {
            return false;
        }
        counters.remove(site);
        seen.checkAt().ifPresent(at -> shard(site).remove(new SweepMark(site, at)));
        return true;
    }

    @Override
    public int sweepShards() {
        return SHARDS;
    }

    @Override
    public synchronized List<SweepMark> sweepDue(int shard, Instant now, int limit) {
        return marks.get(shard).stream().filter(m -> !m.at().isAfter(now)).limit(limit).toList();
    }

    @Override
    public synchronized boolean schedule(SiteKey site, Optional<Instant> from, Instant to) {
        Counter c = counters.get(site);
        if (c == null || !c.checkAt().equals(from)) {
            return false;
        }
        from.ifPresent(at -> shard(site).remove(new SweepMark(site, at)));
        shard(site).add(new SweepMark(site, to));
        counters.put(site, new Counter(c.progressAt(), Optional.of(to), c.spread()));
        return true;
    }

    @Override
    public synchronized void unmark(SweepMark mark) {
        shard(mark.site()).remove(mark);
    }

    @Override
    public synchronized boolean release(FrontierEntry entry, Instant now, int cap) {
        String key = key(entry);
        FrontierEntry pendingNow = pendingOf(entry.site()).get(key);
        if (pendingNow == null || pendingNow.send() != entry.send() || releasedOf(entry.site()).size() >= cap) {
            return false;
        }
        pendingOf(entry.site()).remove(key);
        releasedOf(entry.site()).put(key, new Released(entry.with(entry.attempt(), entry.notBefore(), entry.send() + 1),
                now));
        return true;
    }

    @Override
    public synchronized boolean requeue(FetchJob at, int attempt, Instant notBefore, Instant now) {
        String key = key(EntryKey.of(at));
        Released r = releasedOf(at.siteKey()).remove(key);
        if (r == null) {
            return false;
        }
        FrontierEntry e = r.entry().at(at);
        pendingOf(at.siteKey()).put(key, e.with(attempt, notBefore, e.send()));
        progressed(at.siteKey(), now);
        return true;
    }

    @Override
    public synchronized void done(SiteKey site, EntryKey entry, Instant now) {
        if (releasedOf(site).remove(key(entry)) != null) {
            progressed(site, now);
        }
    }

    @Override
    public synchronized List<SiteKey> activeSites() {
        return List.copyOf(counters.keySet());
    }

    @Override
    public synchronized List<FrontierEntry> releasedBefore(SiteKey site, Instant cutoff) {
        return releasedOf(site).values().stream().filter(r -> r.at().isBefore(cutoff)).map(Released::entry).toList();
    }

    @Override
    public synchronized boolean resend(FrontierEntry entry, Instant now) {
        String key = key(entry);
        Released r = releasedOf(entry.site()).get(key);
        if (r == null || r.entry().send() != entry.send()) {
            return false;
        }
        releasedOf(entry.site()).put(key, new Released(r.entry().with(r.entry().attempt(), r.entry().notBefore(),
                r.entry().send() + 1), now));
        return true;
    }

    @Override
    public synchronized List<FrontierEntry> pendingOfBatch(SiteKey site, String batchId, int limit) {
        return pendingOf(site).values().stream().filter(e -> e.batchId().equals(batchId)).limit(limit).toList();
    }

    public synchronized int pending(SiteKey site) {
        return pendingOf(site).size();
    }

    private void progressed(SiteKey site, Instant now) {
        counters.computeIfPresent(site, (s, c) -> new Counter(Optional.of(now), c.checkAt(), c.spread()));
    }

    /** The entry's site has a counter that counts its partition in. */
    private void counted(FrontierEntry entry) {
        counters.merge(entry.site(), Counter.NEW.spreadTo(entry.partition()), (c, n) -> c.spreadTo(entry.partition()));
    }

    private TreeSet<SweepMark> shard(SiteKey site) {
        return marks.get(Math.floorMod(site.value().hashCode(), SHARDS));
    }

    private Map<String, FrontierEntry> pendingOf(SiteKey site) {
        return pending.computeIfAbsent(site, s -> new LinkedHashMap<>());
    }

    private Map<String, Released> releasedOf(SiteKey site) {
        return released.computeIfAbsent(site, s -> new LinkedHashMap<>());
    }

    private static String key(FrontierEntry entry) {
        return key(EntryKey.of(entry));
    }

    private static String key(EntryKey entry) {
        return entry.partition() + "#" + entry.batchId() + "#" + entry.urlHash();
    }
}
