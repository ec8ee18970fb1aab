package io.spiderling.local.cost;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A phase's DynamoDB load per table and per partition key, per URL, and the crawl rates AWS's limits allow with it:
 * a key serves at most {@value #KEY_WRU_PER_S} WRU/s and {@value #KEY_RRU_PER_S} RRU/s (a partition's limits; a key
 * never spans partitions), a table the per-table quota docs/capacity.md asks to request ({@link #quota}), with the
 * ceiling at AWS's default ({@link #DEFAULT_TABLE_QUOTA}) printed beside it.
 * A ceiling is the limit divided by the units per URL: ceiling = 1,000 WRU/s ÷ the key's WRU per URL, say.
 *
 * <p>Keys are grouped by {@link KeyShape}, so the report reads {@code B#<batch> (the batch header and its origins)};
 * each shape's ceiling is computed from its single hottest key value, not from the shape's sum. A site-bound shape's
 * load grows with its site's URLs, not with the crawl's: its ceiling is given in URLs a second of its site (its units
 * divided by the URLs per site, {@link Sites}) and judged against {@value #SITE_MARGIN} times the site's allowed rate.
 *
 * @param keys the pipeline's units per key over the phase
 * @param urls the URLs of the phase
 * @param sites how many URLs the busiest site had and at what rate, when the phase knows (else site-bound keys are
 *     judged like the others)
 */
public record KeyLoadReport(Map<Usage.Key, Usage.KeyLoad> keys, long urls, String unit, Optional<Sites> sites) {

    /** A partition-key value's write limit, in WRU a second. */
    public static final double KEY_WRU_PER_S = 1_000;
    /** A partition-key value's read limit, in RRU a second. */
    public static final double KEY_RRU_PER_S = 3_000;
    /** The on-demand default per-table quota, reads and writes each, in request units a second. */
    public static final double DEFAULT_TABLE_QUOTA = 40_000;
    /**
     * The per-table quota docs/capacity.md asks to request for 10,000 URLs a second, reads and writes each. AWS's
     * table-level quota is one adjustable value for every on-demand table of an account and Region (there is no
     * account-level one for on-demand tables), so one figure serves every table.
     */
    public static final double REQUESTED_TABLE_QUOTA = 200_000;
    /** A site-bound key must allow at least this many times its site's rate. */
    public static final int SITE_MARGIN = 10;

    /** The busiest site's URLs in the phase and its allowed rate, in requests a second. */
    public record Sites(long urlsPerSite, double rate) {}

    /** The quota a table's ceiling is judged by: {@link #REQUESTED_TABLE_QUOTA}, the same for every table. */
    public static double quota(String table) {
        return REQUESTED_TABLE_QUOTA;
    }

    /** One shape's keys in one table: how many, their sum, and the hottest by writes and by reads. */
    record ShapeLoad(KeyShape shape, int count, Usage.KeyLoad total, Map.Entry<Usage.Key, Usage.KeyLoad> hottestWrite,
            Map.Entry<Usage.Key, Usage.KeyLoad> hottestRead) {}

    /** The keys of {@code table}, by shape. */
    List<ShapeLoad> shapes(String table) {
        Map<KeyShape, List<Map.Entry<Usage.Key, Usage.KeyLoad>>> byShape = new TreeMap<>();
        keys.entrySet().stream().filter(e -> e.getKey().table().equals(table))
                .forEach(e -> byShape.computeIfAbsent(e.getKey().shape(), s -> new ArrayList<>()).add(e));
        List<ShapeLoad> loads = new ArrayList<>();
        byShape.forEach((shape, entries) -> loads.add(new ShapeLoad(shape, entries.size(),
                entries.stream().map(Map.Entry::getValue).reduce(Usage.KeyLoad.NONE, Usage.KeyLoad::plus),
                entries.stream().max(Comparator.comparingDouble(e -> e.getValue().writeUnits())).orElseThrow(),
                entries.stream().max(Comparator.comparingDouble(e -> e.getValue().readUnits())).orElseThrow())));
        return loads;
    }

    /** Ceiling in URLs/s for a key carrying {@code load} over the phase: the tighter of its write and read limits. */
    double keyCeiling(Usage.KeyLoad load, double perUrls) {
        return Math.min(ceiling(KEY_WRU_PER_S, load.writeUnits() / perUrls),
                ceiling(KEY_RRU_PER_S, load.readUnits() / perUrls));
    }

    /** {@code limit} ÷ units per URL; infinite when nothing is used. */
    static double ceiling(double limit, double unitsPerUrl) {
        return unitsPerUrl <= 0 ? Double.POSITIVE_INFINITY : limit / unitsPerUrl;
    }

    public String render() {
        StringBuilder out = new StringBuilder();
        double n = Math.max(1, urls);
        line(out, "DynamoDB load per table and per partition key, per %s; ceilings in %ss a second (a key %,.0f WRU/s"
                + " and %,.0f RRU/s, a table its quota)%s:", unit, unit, KEY_WRU_PER_S, KEY_RRU_PER_S,
                sites.map(s -> String.format(Locale.ROOT, "; site-bound keys (*) per URL of their site, %,d URLs"
                        + " each, judged against %d x %s req/s", s.urlsPerSite(), SITE_MARGIN, num(s.rate())))
                        .orElse(""));
        Map<String, Usage.KeyLoad> tables = new TreeMap<>();
        keys.forEach((k, v) -> tables.merge(k.table(), v, Usage.KeyLoad::plus));
        tables.forEach((table, total) -> {
            double wru = total.writeUnits() / n;
            double rru = total.readUnits() / n;
            line(out, "  %s: %s WRU, %s RRU per %s; quota %,.0f (to request) -> ceiling %s (writes), %s (reads);"
                    + " at the default %,.0f: %s, %s", table, num(wru), num(rru), unit, quota(table),
                    rate(ceiling(quota(table), wru)), rate(ceiling(quota(table), rru)), DEFAULT_TABLE_QUOTA,
                    rate(ceiling(DEFAULT_TABLE_QUOTA, wru)), rate(ceiling(DEFAULT_TABLE_QUOTA, rru)));
            List<ShapeLoad> shapes = shapes(table);
            shapes.stream().max(Comparator.comparingDouble(s -> s.hottestWrite().getValue().writeUnits()))
                    .filter(s -> s.hottestWrite().getValue().writeUnits() > 0)
                    .ifPresent(s -> hottest(out, "WRU", s, s.hottestWrite(), n));
            shapes.stream().max(Comparator.comparingDouble(s -> s.hottestRead().getValue().readUnits()))
                    .filter(s -> s.hottestRead().getValue().readUnits() > 0)
                    .ifPresent(s -> hottest(out, "RRU", s, s.hottestRead(), n));
            line(out, "    %-22s %7s %9s %9s   %-40s %9s %9s %14s", "key shape", "keys", "WRU", "RRU", "hottest key",
                    "WRU", "RRU", "ceiling");
            for (ShapeLoad s : shapes) {
                Map.Entry<Usage.Key, Usage.KeyLoad> hot = hotter(s);
                double per = perUrls(s.shape(), n);
                line(out, "    %-22s %7d %9s %9s   %-40s %9s %9s %14s", s.shape().label() + (site(s.shape()) ? "*"
                        : ""), s.count(), num(s.total().writeUnits() / n), num(s.total().readUnits() / n),
                        abbreviate(hot.getKey().key()), num(hot.getValue().writeUnits() / per),
                        num(hot.getValue().readUnits() / per), rate(keyCeiling(hot.getValue(), per))
                        + verdict(s.shape(), keyCeiling(hot.getValue(), per)));
            }
        });
        return out.toString();
    }

    private void hottest(StringBuilder out, String what, ShapeLoad s, Map.Entry<Usage.Key, Usage.KeyLoad> key,
            double n) {
        double per = perUrls(s.shape(), n);
        double units = what.equals("WRU") ? key.getValue().writeUnits() / per : key.getValue().readUnits() / per;
        double limit = what.equals("WRU") ? KEY_WRU_PER_S : KEY_RRU_PER_S;
        line(out, "    hottest by %s: %s (%s) %s: %s %s per %s -> ceiling %s%s", what, s.shape().label(),
                s.shape().meaning(), abbreviate(key.getKey().key()), num(units), what,
                site(s.shape()) ? "URL of its site" : unit, rate(ceiling(limit, units)),
                verdict(s.shape(), ceiling(limit, units)));
    }

    /** The shape's hottest key by its tighter ceiling. */
    private Map.Entry<Usage.Key, Usage.KeyLoad> hotter(ShapeLoad s) {
        return keyCeiling(s.hottestWrite().getValue(), 1) <= keyCeiling(s.hottestRead().getValue(), 1)
                ? s.hottestWrite() : s.hottestRead();
    }

    /** What a key's units are divided by: the phase's URLs, or for a site-bound key its site's. */
    private double perUrls(KeyShape shape, double n) {
        return site(shape) ? Math.max(1, sites.orElseThrow().urlsPerSite()) : n;
    }

    private boolean site(KeyShape shape) {
        return shape.siteBound() && sites.isPresent();
    }

    private String verdict(KeyShape shape, double ceiling) {
        if (!site(shape)) {
            return "";
        }
        return ceiling >= SITE_MARGIN * sites.orElseThrow().rate() ? " ok" : " LOW";
    }

    private static String rate(double urlsPerSecond) {
        return Double.isInfinite(urlsPerSecond) ? "unbounded" : String.format(Locale.ROOT, "%,.0f/s", urlsPerSecond);
    }

    private static String abbreviate(String key) {
        return key.length() <= 40 ? key : key.substring(0, 37) + "...";
    }

    private static String num(double value) {
        return CostReport.num(value);
    }

    private static void line(StringBuilder out, String format, Object... args) {
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}
