package io.spiderling.core.politeness;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.url.SiteKey;
import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * A site's lanes: the fetch queue's message groups that its jobs are spread over ({@link FetchJob#messageGroupId}),
 * one per place it may have in flight ({@link RateLimiter#maxInFlight}) on its configured rate. SQS FIFO hands out a
 * group's messages one at a time, so a site's lanes are the fetchers that can hold its requests at once: 2 for a site
 * at the default rate, up to {@code maxInFlightCap} for one whose override allows it more. The rate item still decides
 * every slot; lanes only let the slots be used.
 *
 * <p>The planner (the frontier's sends) and the fetch stage (a redirect to a URL of another group) must agree on a
 * site's lanes, so both derive them here from the same overrides file. The lanes follow the override, not the
 * robots.txt crawl delay, which only the fetch stage reads: a crawl delay lowers the places in flight, and the lanes
 * beyond them get refusals, which the frontier's depth cap bounds.
 */
public final class Lanes {

    /**
     * The requests a second one frontier partition of a site is sized for. A partition is one DynamoDB partition key,
     * which takes 1,000 write units a second; the frontier writes about 10 per URL (a park, a release and a done,
     * each a transaction), so one partition carries about 100 URLs a second, ten times 10 requests a second. Half
     * that leaves room for retries and waits, which write the entry again.
     */
    static final int REQUESTS_PER_PARTITION = 5;
    /** The most frontier partitions of one site: a release reads each. */
    static final int MAX_PARTITIONS = 16;

    private final ToIntFunction<SiteKey> groups;
    private final ToIntFunction<SiteKey> partitions;
    private final int usual;

    private Lanes(ToIntFunction<SiteKey> groups, ToIntFunction<SiteKey> partitions, int usual) {
        this.groups = groups;
        this.partitions = partitions;
        this.usual = usual;
    }

    /** Every site in {@code groups} lanes, whatever its rate. */
    public static Lanes fixed(int groups) {
        if (groups < 1) {
            throw new IllegalArgumentException("groups must be at least 1, was " + groups);
        }
        return new Lanes(site -> groups, site -> 1, groups);
    }

    /** Each site in as many lanes as {@code limiter} gives it places in flight on its rate in {@code overrides}. */
    public static Lanes of(RateLimiter limiter, RateOverrides overrides) {
        Objects.requireNonNull(limiter, "limiter");
        Objects.requireNonNull(overrides, "overrides");
        int usual = limiter.settings().admission().maxInFlight();
        java.util.function.Function<SiteKey, java.time.Duration> interval =
                site -> overrides.intervalFor(site.value(), limiter.settings().spacing().defaultInterval());
        return new Lanes(site -> lanesFor(limiter.maxInFlight(interval.apply(site)), usual),
                site -> partitionsFor(interval.apply(site)), usual);
    }

    /** One partition per {@value #REQUESTS_PER_PARTITION} requests a second the interval allows, at least one. */
    static int partitionsFor(java.time.Duration interval) {
        // ceil(requests a second / REQUESTS_PER_PARTITION), where requests a second = 1,000 / the interval in ms
        long partitions = Math.ceilDiv(1_000L, Math.max(1, interval.toMillis()) * REQUESTS_PER_PARTITION);
        return (int) Math.clamp(partitions, 1, MAX_PARTITIONS);
    }

    /**
     * A lane per place up to the usual number; beyond it, a lane per two places. A lane's finished request keeps its
     * place until the session's next write (its release rides on it), so a lane may hold two places for a moment:
     * with a lane per place, a site allowed 50 a second ran at its 50 places and refused the rest as in flight, each
     * refusal a job put back (`bench-fetch --sites 1 --qps 50`: 1,064 of 1,148 put backs).
     */
    static int lanesFor(int places, int usual) {
        return places <= usual ? places : Math.max(usual, (places + 1) / 2);
    }

    /** The site's message groups in the fetch queue. */
    public int groups(SiteKey site) {
        return groups.applyAsInt(site);
    }

    /**
     * How many partitions of the frontier a site's new entries spread over ({@link
     * io.spiderling.core.frontier.FrontierEntry#partitionOf}): one for a site at up to {@value
     * #REQUESTS_PER_PARTITION} requests a second, one more per {@value #REQUESTS_PER_PARTITION} that its override
     * allows beyond, so that each partition's writes stay bounded whatever the site is allowed.
     */
    public int partitions(SiteKey site) {
        return partitions.applyAsInt(site);
    }

    /** The job's message group, among its site's. */
    public String messageGroupId(FetchJob job) {
        return job.messageGroupId(groups(job.siteKey()));
    }

    /**
     * The frontier's depth cap for the site: {@code depthCap}, or two jobs per lane if that is more (one being
     * fetched, one waiting in its group for when it ends), so that every lane of a site allowed more stays busy. No
     * more than that: the queue's messages cost a receive its scan (ElasticMQ scans every message of a FIFO queue for
     * a free group on each receive: 250 jobs of one site made it half of the local stack's CPU).
     */
    public int depthCap(SiteKey site, int depthCap) {
        return Math.max(depthCap, 2 * groups(site));
    }
}
