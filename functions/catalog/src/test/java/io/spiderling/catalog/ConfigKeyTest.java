package io.spiderling.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class ConfigKeyTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvFileSource(resources = "/catalog/duration-cases.csv", ignoreLeadingAndTrailingWhitespace = false)
    void read_whenDurationText_parsesQuarkusSyntax(String text, String expected) {
        assertEquals(Duration.parse(expected), ConfigKeys.FETCH_RETRY_BASE.read(Optional.of(text)));
    }

    @Test
    void read_whenRequiredKeyUnset_namesTheKeyAndItsVariable() {
        var e = assertThrows(IllegalArgumentException.class, () -> ConfigKeys.QUEUES_FETCH.read(Optional.empty()));
        assertEquals("spiderling.queues.fetch is not set (environment variable SPIDERLING_QUEUES_FETCH)",
                e.getMessage());
    }

    @Test
    void read_whenValueMalformed_namesTheKey() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> ConfigKeys.FETCH_CONNECT_TIMEOUT.read(Optional.of("soon")));
        assertTrue(e.getMessage().startsWith("spiderling.fetch.connect-timeout: "), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ConfigKeys.LINKS_ENABLED.read(Optional.of("yes")));
        assertThrows(IllegalArgumentException.class, () -> ConfigKeys.AUTH_MODE.read(Optional.of("tokens")));
        assertThrows(IllegalArgumentException.class, () -> ConfigKeys.FRONTIER_DEPTH_CAP.read(Optional.of("ten")));
    }

    @Test
    void read_whenOptionalKeyUnsetOrBlank_isEmpty() {
        assertEquals(Optional.empty(), ConfigKeys.QUEUES_EVENTS.read(Optional.empty()));
        assertEquals(Optional.empty(), ConfigKeys.QUEUES_EVENTS.read(Optional.of(" ")));
        assertEquals(Optional.of("q"), ConfigKeys.QUEUES_EVENTS.read(Optional.of(" q ")));
    }

    @Test
    void read_whenList_dropsBlanks() {
        assertEquals(List.of("a.example", "*.b.example"),
                ConfigKeys.NOTIFY_ALLOWED_HOSTS.read(Optional.of(" a.example, ,*.b.example,")));
    }

    @Test
    void envName_followsMicroProfileConfig() {
        assertEquals("SPIDERLING_FETCH_USER_AGENT", ConfigKeys.FETCH_USER_AGENT.envName());
        assertEquals("SPIDERLING_AWS_ENDPOINT_DYNAMODB", ConfigKeys.AWS_ENDPOINT_DYNAMODB.envName());
    }

    @Test
    void all_whenListed_holdsEveryKeyOnceWithDistinctVariables() {
        List<ConfigKey<?>> all = ConfigKeys.all();
        Set<String> env = new HashSet<>();
        all.forEach(k -> assertTrue(env.add(k.envName()), k + " shares its variable"));
        assertTrue(all.contains(ConfigKeys.SWEEP_UNPLANNED_AFTER));
        assertEquals(new HashSet<>(all).size(), all.size());
    }
}
