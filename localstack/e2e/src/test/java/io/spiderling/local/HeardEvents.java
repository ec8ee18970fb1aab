package io.spiderling.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/** The listeners' events as a test hears them ({@link LocalSpiderling#listen}), parsed, in the order they came. */
final class HeardEvents implements Consumer<String> {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<JsonNode> events = new CopyOnWriteArrayList<>();

    @Override
    public void accept(String event) {
        try {
            events.add(JSON.readTree(event));
        } catch (IOException e) {
            throw new IllegalStateException("an event that is not JSON: " + event, e);
        }
    }

    /** Every delivery of every event so far, repeats included. */
    List<JsonNode> all() {
        return List.copyOf(events);
    }

    /** The deliveries of events of {@code type}. */
    List<JsonNode> of(String type) {
        return events.stream().filter(e -> e.get("type").asText().equals(type)).toList();
    }

    /** The URLs events of {@code type} named. */
    Set<String> urls(String type) {
        return of(type).stream().map(e -> e.get("url").asText()).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Polls {@code done} until it holds or {@code timeout} passes; whether it held. */
    static boolean await(BooleanSupplier done, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (done.getAsBoolean()) {
                return true;
            }
            Thread.sleep(200);
        }
        return done.getAsBoolean();
    }

    @Override
    public String toString() {
        return events.toString();
    }
}
