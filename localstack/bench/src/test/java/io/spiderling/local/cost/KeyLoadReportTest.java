package io.spiderling.local.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Ceilings from units per URL: a key's limit, or a table's quota, divided by what one URL costs it. */
class KeyLoadReportTest {

    private static final Map<Usage.Key, Usage.KeyLoad> KEYS = Map.of(
            new Usage.Key("batches", "B#b1"), new Usage.KeyLoad(1_000, 4_000),
            new Usage.Key("batches", "B#b1#a"), new Usage.KeyLoad(0, 500),
            new Usage.Key("batches", "B#b1#b"), new Usage.KeyLoad(0, 600),
            new Usage.Key("sites", "RATE#a.example"), new Usage.KeyLoad(0, 40));

    @Test
    void keyCeiling_whenHeaderBillsFourWruPerUrl_is250UrlsPerSecond() {
        KeyLoadReport report = new KeyLoadReport(KEYS, 1_000, "fetched URL", Optional.empty());

        assertEquals(250, report.keyCeiling(KEYS.get(new Usage.Key("batches", "B#b1")), 1_000), 1e-9);
        assertEquals(200_000 / 5.1, KeyLoadReport.ceiling(KeyLoadReport.quota("batches"), 5_100 / 1_000.0), 1e-9);
    }

    @Test
    void render_whenShapes_namesTheHottestKeyOfEachAndJudgesSiteKeysByTheirSite() {
        String text = new KeyLoadReport(KEYS, 1_000, "fetched URL", Optional.of(new KeyLoadReport.Sites(10, 5)))
                .render();

        assertTrue(text.contains("hottest by WRU: B#<batch> (the batch header and its origins) B#b1: 4 WRU per"
                + " fetched URL -> ceiling 250/s"), text);
        assertTrue(text.contains("B#b1#b"), "the hotter shard stands for its shape: " + text);
        // 40 WRU over the site's 10 URLs: 4 WRU a site URL, 250 site URLs/s, above 10 x 5 req/s.
        assertTrue(text.contains("hottest by WRU: RATE#<site> (a site's rate item) RATE#a.example: 4 WRU per URL of"
                + " its site -> ceiling 250/s ok"), text);
    }
}
