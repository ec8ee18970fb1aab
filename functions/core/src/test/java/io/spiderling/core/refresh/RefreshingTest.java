package io.spiderling.core.refresh;

import io.spiderling.core.auth.Clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.testing.TestClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Refreshing}, over the clients file: its timeline table, from a source that changes and fails. */
class RefreshingTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");

    /** What the source holds from a time on, and what a caller sees then. */
    private record Step(long second, String source, String expected) {}

    @Test
    void get_whenTheSourceChangesAndFails_followsTheTimelineTable() throws IOException {
        List<Step> steps = timeline();
        TestClock clock = new TestClock(T0);
        String[] source = new String[1];
        int[] reads = new int[1];
        Refreshing<Clients> clients = new Refreshing<>(() -> {
            reads[0]++;
            if (source[0].equals("fail")) {
                throw new UncheckedIOException(new IOException("secret unreachable"));
            }
            return fixture(source[0]);
        }, Clients::parse, "the clients", Duration.ofSeconds(60), clock);

        for (Step step : steps) {
            clock.set(T0.plusSeconds(step.second()));
            source[0] = step.source();
            String at = "at " + step.second() + " s";
            if (step.expected().equals("error")) {
                IllegalStateException e = assertThrows(IllegalStateException.class, clients::get, at);
                assertEquals("cannot read the clients: java.io.IOException: secret unreachable", e.getMessage(), at);
            } else {
                assertEquals(step.expected(), clients.get().webhookSecret("acme").orElse("none"), at);
            }
        }
        assertEquals(6, reads[0], "read at 0, 1, 61, 122, 183 and 244 s only: a copy younger than the ttl is served");
    }

    @Test
    void constructor_whenTtlNegative_refuses() {
        assertThrows(IllegalArgumentException.class,
                () -> new Refreshing<>(() -> "", Clients::parse, "the clients", Duration.ofSeconds(-1),
                        new TestClock(T0)));
    }

    private static List<Step> timeline() throws IOException {
        List<Step> steps = new ArrayList<>();
        for (String line : resource("/auth/refreshing-clients-timeline.csv").lines().toList()) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split(",");
            steps.add(new Step(Long.parseLong(f[0]), f[1], f[2]));
        }
        return steps;
    }

    private static String fixture(String name) {
        try {
            return resource("/auth/refreshing/" + name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = RefreshingTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
