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

/** A {@link FrontierStore} in maps, with the port's rules: one entry per (site, batch, URL), and the cap. */
public final class InMemoryFrontierStore implements FrontierStore {

    private record Released(FrontierEntry entry, Instant at) {}

    private final Map<SiteKey, Map<String, FrontierEntry>> pending = new HashMap<>();
    private final Map<SiteKey, Map<String, Released>> released = new HashMap<>();
    /** Run after every {@link #due} read: a test's clock may move while a release runs, as a slow store's would. */
    private Runnable afterDue = () -> {};

    @Override
    public synchronized boolean park(FrontierEntry entry) {
        String key = key(entry.batchId(), entry.urlHash());
        if (pendingOf(entry.site()).containsKey(key) || releasedOf(entry.site()).containsKey(key)) {
            return false;
        }
        pendingOf(entry.site()).put(key, entry);
        return true;
    }

    @Override
    public synchronized List<FrontierEntry> due(SiteKey site, Instant now, int limit) {
        List<FrontierEntry> due = pendingOf(site).values().stream()
                .filter(e -> !e.notBefore().isAfter(now))
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
    public synchronized int released(SiteKey site) {
        return releasedOf(site).size();
    }

    @Override
    public synchronized boolean release(FrontierEntry entry, Instant now, int cap) {
        String key = key(entry.batchId(), entry.urlHash());
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
    public synchronized boolean requeue(FetchJob at, int attempt, Instant notBefore) {
        Released r = releasedOf(at.siteKey()).remove(key(at.batchId(), at.itemHash()));
        if (r == null) {
            return false;
        }
        FrontierEntry e = r.entry().at(at);
        pendingOf(at.siteKey()).put(key(at.batchId(), at.itemHash()), e.with(attempt, notBefore, e.send()));
        return true;
    }

    @Override
    public synchronized void done(SiteKey site, String batchId, String urlHash) {
        releasedOf(site).remove(key(batchId, urlHash));
    }

    @Override
    public synchronized List<SiteKey> activeSites() {
        List<SiteKey> sites = new ArrayList<>();
        pending.forEach((site, entries) -> {
            if (!entries.isEmpty() || !releasedOf(site).isEmpty()) {
                sites.add(site);
            }
        });
        released.forEach((site, entries) -> {
            if (!entries.isEmpty() && !sites.contains(site)) {
                sites.add(site);
            }
        });
        return sites;
    }

    @Override
    public synchronized List<FrontierEntry> releasedBefore(SiteKey site, Instant cutoff) {
        return releasedOf(site).values().stream().filter(r -> r.at().isBefore(cutoff)).map(Released::entry).toList();
    }

    @Override
    public synchronized void resent(FrontierEntry entry, Instant now) {
        releasedOf(entry.site()).computeIfPresent(key(entry.batchId(), entry.urlHash()),
                (k, r) -> new Released(r.entry(), now));
    }

    @Override
    public synchronized List<FrontierEntry> pendingOfBatch(SiteKey site, String batchId, int limit) {
        return pendingOf(site).values().stream().filter(e -> e.batchId().equals(batchId)).limit(limit).toList();
    }

    public synchronized int pending(SiteKey site) {
        return pendingOf(site).size();
    }

    private Map<String, FrontierEntry> pendingOf(SiteKey site) {
        return pending.computeIfAbsent(site, s -> new LinkedHashMap<>());
    }

    private Map<String, Released> releasedOf(SiteKey site) {
        return released.computeIfAbsent(site, s -> new LinkedHashMap<>());
    }

    private static String key(String batchId, String urlHash) {
        return batchId + "#" + urlHash;
    }
}
