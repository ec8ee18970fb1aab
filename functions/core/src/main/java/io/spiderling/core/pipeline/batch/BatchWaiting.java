package io.spiderling.core.pipeline.batch;

import io.spiderling.core.batch.BatchOrigins;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.PlanProgress;
import io.spiderling.core.batch.Waiting;
import io.spiderling.core.batch.WaitingReasons;
import io.spiderling.core.politeness.SiteRate;
import io.spiderling.core.port.BatchOriginStore;
import io.spiderling.core.port.FetchSwitch;
import io.spiderling.core.port.FrontierStore;
import io.spiderling.core.port.RateStore;
import io.spiderling.core.port.RobotsStore;
import io.spiderling.core.robots.RobotsCacheEntry;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an unfinished batch is waiting on, for its status: the whole batch (planning, the kill switch) and the sites it
 * still has URLs parked on, with the reasons {@link WaitingReasons} finds in their stored state.
 *
 * <p><b>Cost.</b> Clients poll the status every few seconds, and every read is billed, so a done batch costs nothing
 * more, and an unfinished one a bounded handful of reads: its origin list (one item, written at planning), the rate
 * items of its sites and the robots.txt entries of its origins (one batched read each, for at most
 * {@link BatchOrigins#MAX} origins), the kill switch (cached by its adapter), and the batch's parked entries on at most
 * {@link #MAX_SITES} sites (one query each, of at most {@link WaitingReasons#COUNT_LIMIT} entries). A batch on more
 * sites than that looks only at those whose state says they wait, and counts the rest in {@link Report#more()}.
 */
public final class BatchWaiting {

    /** Sites whose parked entries one status call reads. */
    public static final int MAX_SITES = 10;

    /**
     * @param waiting what the batch waits on: batch-wide reasons first, then sites in the order they were listed
     * @param more sites whose state says they wait, beyond the {@link #MAX_SITES} looked at
     * @param partial the batch has URLs on more origins than its list holds ({@link BatchOrigins#MAX}), which were not
     *     looked at
     */
    public record Report(List<Waiting> waiting, int more, boolean partial) {
        public static final Report NONE = new Report(List.of(), 0, false);

        public Report {
            waiting = List.copyOf(waiting);
        }
    }

    /** The stores read. */
    public record Stores(BatchOriginStore origins, FrontierStore frontier, RateStore rates, RobotsStore robots,
            FetchSwitch fetchSwitch) {}

    private final Stores stores;
    private final WaitingReasons reasons;
    private final Clock clock;

    public BatchWaiting(Stores stores, WaitingReasons reasons, Clock clock) {
        this.stores = stores;
        this.reasons = reasons;
        this.clock = clock;
    }

    /** What the batch waits on now; nothing, without a read, once it is done or cancelled. */
    public Report of(BatchStatus status) {
        if (status.done() || status.cancelledAt().isPresent()) {
            return Report.NONE;
        }
        List<Waiting> waiting = new ArrayList<>();
        if (!status.planned()) {
            PlanProgress p = status.planning().orElse(PlanProgress.AWAITING_UPLOAD);
            waiting.add(new Waiting.Planning(p.chunksDone(), p.chunks()));
        }
        if (stores.fetchSwitch().paused()) {
            waiting.add(new Waiting.FetchingPaused());
        }
        BatchOrigins listed = stores.origins().origins(status.header().batchId());
        if (listed.origins().isEmpty()) {
            return new Report(waiting, 0, listed.more());
        }
        Map<SiteKey, List<RobotsOrigin>> bySite = new LinkedHashMap<>();
        for (RobotsOrigin origin : listed.origins()) {
            bySite.computeIfAbsent(NormalizedUrl.parse(origin.robotsUrl()).siteKey(), s -> new ArrayList<>())
                    .add(origin);
        }
        Map<SiteKey, SiteRate> rates = stores.rates().findAll(bySite.keySet());
        Map<RobotsOrigin, RobotsCacheEntry> robots = stores.robots().findAll(listed.origins());
        Instant now = clock.instant();
        List<WaitingReasons.SiteState> states = bySite.entrySet().stream()
                .map(e -> new WaitingReasons.SiteState(e.getKey(), Optional.ofNullable(rates.get(e.getKey())),
                        e.getValue().stream().filter(robots::containsKey).map(robots::get).toList()))
                .toList();
        // Few sites: look at them all (retries show only in the parked entries). Many: only those that say they wait.
        List<WaitingReasons.SiteState> candidates = states.size() <= MAX_SITES ? states
                : states.stream().filter(s -> reasons.suspect(s, now)).toList();
        for (WaitingReasons.SiteState state : candidates.subList(0, Math.min(MAX_SITES, candidates.size()))) {
            WaitingReasons.Parked parked = WaitingReasons.Parked.of(stores.frontier().pendingOfBatch(state.site(),
                    status.header().batchId(), WaitingReasons.COUNT_LIMIT), now);
            reasons.of(state, parked, now).ifPresent(waiting::add);
        }
        return new Report(waiting, Math.max(0, candidates.size() - MAX_SITES), listed.more());
    }
}
