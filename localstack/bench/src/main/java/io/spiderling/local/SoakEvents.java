package io.spiderling.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The soak's listener on the events queue ({@link LocalSpiderling#listen}): it tallies the {@code url.fetched} events
 * by URL and the {@code batch.completed} events by batch, in arrays and maps of the run's size, so that what a
 * deployment's listener would be told can be checked against what the API says. SQS delivers at least once, so the
 * same event (the same id) may come twice; two different ids for one URL would be a fetch told twice.
 */
final class SoakEvents implements Consumer<String> {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SoakSites sites;
    /** {@code url.fetched} messages per URL. */
    private final int[] heard;
    /** The id of the first {@code url.fetched} event of each URL; null until one came. */
    private final String[] firstId;
    private final Map<String, Integer> completed = new TreeMap<>();
    private int otherIds;
    private int redelivered;
    private int unreadable;
    private int strays;

    SoakEvents(SoakSites sites) {
        this.sites = sites;
        this.heard = new int[sites.size()];
        this.firstId = new String[sites.size()];
    }

    @Override
    public synchronized void accept(String body) {
        JsonNode event;
        try {
            event = JSON.readTree(body);
        } catch (IOException e) {
            unreadable++;
            return;
        }
        String type = event.path("type").asText();
        String id = event.path("eventId").asText();
        switch (type) {
            case "url.fetched" -> {
                int url = sites.indexOf(event.path("url").asText());
                if (url < 0) {
                    strays++;
                } else if (heard[url]++ == 0) {
                    firstId[url] = id;
                } else if (firstId[url].equals(id)) {
                    redelivered++;
                } else {
                    otherIds++;
                }
            }
            case "batch.completed" -> completed.merge(event.path("batchId").asText(), 1, Integer::sum);
            default -> strays++;
        }
    }

    /** Waits until every batch has been heard complete and {@code fetched} URLs told, or {@code timeout}. */
    void await(int batches, int fetched, Duration timeout) throws InterruptedException {
        Instant end = Instant.now().plus(timeout);
        while (Instant.now().isBefore(end)) {
            synchronized (this) {
                if (completed.size() >= batches && told() >= fetched) {
                    return;
                }
            }
            Thread.sleep(250);
        }
    }

    private int told() {
        int told = 0;
        for (int count : heard) {
            told += count > 0 ? 1 : 0;
        }
        return told;
    }

    /**
     * The check: a {@code url.fetched} event for each URL the API lists as fetched and for no other, one id each;
     * one {@code batch.completed} for each batch (redelivered copies allowed, as SQS may).
     */
    synchronized Soak.Check check(Map<String, String> itemStates, List<String> batchIds) {
        int missing = 0;
        int unexpected = 0;
        String example = "";
        for (int url = 0; url < heard.length; url++) {
            boolean fetched = "fetched".equals(itemStates.get(sites.url(url)));
            if (fetched != (heard[url] > 0)) {
                if (fetched) {
                    missing++;
                } else {
                    unexpected++;
                }
                if (example.isEmpty()) {
                    example = " e.g. " + sites.url(url) + " (" + itemStates.get(sites.url(url)) + ", " + heard[url]
                            + " events)";
                }
            }
        }
        long batchesHeard = batchIds.stream().filter(completed::containsKey).count();
        long unknownBatches = completed.keySet().stream().filter(id -> !batchIds.contains(id)).count();
        int completedCopies = completed.values().stream().mapToInt(Integer::intValue).sum() - completed.size();
        String result = String.format(Locale.ROOT, "url.fetched for %,d URLs: %,d fetched URLs without one, %,d"
                + " other URLs with one, %,d URLs told twice under another id, %,d redelivered copies; batch.completed"
                + " for %d of %d batches (%d copies, %d unknown); %d unreadable, %d strays%s", told(), missing,
                unexpected, otherIds, redelivered, batchesHeard, batchIds.size(), completedCopies, unknownBatches,
                unreadable, strays, example);
        boolean passed = missing == 0 && unexpected == 0 && otherIds == 0 && batchesHeard == batchIds.size()
                && unknownBatches == 0 && unreadable == 0 && strays == 0;
        return new Soak.Check("listener events (events queue): one url.fetched per fetched URL, one batch.completed"
                + " per batch", result, passed);
    }
}
