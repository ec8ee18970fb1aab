package io.spiderling.core.sitemap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.fetch.FetchRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class LastmodSkipTest {

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/sitemap/lastmod-skip-cases.csv", numLinesToSkip = 1)
    void skip_whenAnEntryHasALastmodAndAStoredCopy_isAsTheCaseSays(String name, String lastmod, String storedState,
            String fetchedAt, String freshUntil, String batchWindow, String now, boolean expected) {
        Optional<FetchRecord> stored = Optional.ofNullable(storedState).map(state -> FetchRecord
                .builder("hash", "https://example.com/a", ItemState.valueOf(state.toUpperCase(Locale.ROOT)),
                        Instant.parse(fetchedAt))
                .freshUntil(Optional.ofNullable(freshUntil).map(Instant::parse))
                .build());

        boolean skip = LastmodSkip.skip(Optional.ofNullable(lastmod).map(Instant::parse), stored,
                Optional.ofNullable(batchWindow).map(Duration::parse), Instant.parse(now));

        assertEquals(expected, skip, name);
    }
}
