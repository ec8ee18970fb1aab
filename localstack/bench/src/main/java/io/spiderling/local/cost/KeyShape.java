package io.spiderling.local.cost;

import java.util.regex.Pattern;

/**
 * The shapes of Spiderling's partition-key values, by table and key prefix, so that a report can name a key by what it
 * holds ({@code B#<batch>}: the batch header) rather than by a random id, and a scale model can tell the keys whose
 * load politeness bounds. The one place that knows the stores' key layouts ({@code DynamoDbBatchStore},
 * {@code DynamoDbFrontierStore}, {@code DynamoDbRateStore}, {@code DynamoDbRobotsStore}, {@code DynamoDbPendingPlans},
 * {@code DynamoDbFetchSwitch}, {@code DynamoDbOptOutStore}, {@code DynamoDbQuotaStore}, {@code DynamoDbUrlStore},
 * {@code DynamoDbLinkStore}); a key none of them matches is
 * {@link #OTHER}. The first shape that matches wins, so the more specific ones come first.
 *
 * <p>A <em>site-bound</em> shape is one whose keys only one site's requests touch: its rate item, its robots.txt copy,
 * its frontier entries and counter. Their load is bounded by the site's allowed rate, not by the crawl's rate, so a model of AWS
 * scaled down by N keeps their real limits ({@code ScaleModel}) and a report judges them per URL of their site against
 * ten times the site's rate ({@code KeyLoadReport}).
 */
public enum KeyShape {
    SCAN(null, "\\(scan\\)", KeyShape.SCAN_KEY, "a Scan of the table", false),
    BATCH_HEADER("batches", "B#[^#]+", "B#<batch>", "the batch header and its origins", false),
    BATCH_CHUNKS("batches", "B#[^#]+#chunks", "B#<batch>#chunks", "an upload's planned chunks", false),
    BATCH_ROWS("batches", "B#[^#]+#[0-9a-f]{2}", "B#<batch>#<partition>", "a batch's URL rows, one partition of 64",
            false),
    BATCH_COUNTERS("batches", "B#[^#]+#n[0-9a-f]{2}", "B#<batch>#n<shard>", "a batch's counters, one shard of 32",
            false),
    PENDING_PLANS("batches", "PENDING-PLANS#[0-9]+", "PENDING-PLANS#<shard>", "pending-plan markers, one shard of 16",
            false),
    QUOTA("batches", "QUOTA#.+", "QUOTA#<client>", "a client's quota: its limit and its days' counts", false),
    FRONTIER_PARTITION("sites", "F#[^#]+#[0-9]+", "F#<site>#<p>",
            "a further partition of a site's frontier entries (item collection), for a site allowed more", true),
    FRONTIER("sites", "F#.+", "F#<site>", "a site's frontier entries, its first partition (item collection)", true),
    RATE("sites", "RATE#.+", "RATE#<site>", "a site's rate item", true),
    ROBOTS("sites", "ROBOTS#.+", "ROBOTS#<origin>", "an origin's robots.txt copy", true),
    SITE_COUNTER("sites", "COUNT#.+", "COUNT#<site>", "a site's frontier counter", true),
    SWEEP_CURSORS("sites", "SWEEP#cursor", "SWEEP#cursor", "the sweep's cursors, one item per shard", false),
    SWEEP_MARKS("sites", "SWEEP#[0-9]+#[0-9]+", "SWEEP#<hour>#<shard>", "the sweep's due marks, one hour of a shard",
            false),
    KILL_SWITCH("sites", "CONTROL", "CONTROL", "the kill switch and the API's opt-outs", false),
    INLINKS("links", ".+#.+", "<target>#<shard>", "a page's inlinks, one shard", false),
    URL_ROW("urls", ".+", "<urlHash>", "a URL's row", false),
    OTHER(null, ".*", "<other>", "a key of no known shape", false);

    /** The pseudo-key a Scan's units are charged to: it reads every partition. */
    public static final String SCAN_KEY = "(scan)";

    private final String table;
    private final Pattern pattern;
    private final String label;
    private final String meaning;
    private final boolean siteBound;

    KeyShape(String table, String regex, String label, String meaning, boolean siteBound) {
        this.table = table;
        this.pattern = Pattern.compile(regex);
        this.label = label;
        this.meaning = meaning;
        this.siteBound = siteBound;
    }

    /**
     * The shape of {@code key} in {@code table} (the catalog's suffix: {@code batches}, {@code sites}, …).
     */
    public static KeyShape of(String table, String key) {
        for (KeyShape shape : values()) {
            if ((shape.table == null || shape.table.equals(table)) && shape.pattern.matcher(key).matches()) {
                return shape;
            }
        }
        return OTHER;
    }

    /** The key's shape as text, {@code B#<batch>}. */
    public String label() {
        return label;
    }

    /** What keys of this shape hold, in a few words. */
    public String meaning() {
        return meaning;
    }

    /** Whether only one site's requests touch a key of this shape, so that politeness bounds its load. */
    public boolean siteBound() {
        return siteBound;
    }
}
