/**
 * What a local run would cost on AWS: {@link io.spiderling.local.cost.Metering} charges every SDK call, handler
 * invocation and logged byte to the function (or event source, harness, stand-in) on whose behalf it was made;
 * {@link io.spiderling.local.cost.CapacityUnits} and {@link io.spiderling.local.cost.Billing} hold AWS's billing
 * rules, {@link io.spiderling.local.cost.AwsPrices} the dated price table, and
 * {@link io.spiderling.local.cost.CostReport} prints a phase per URL and per million URLs. Used by
 * {@code ./spiderling bench-fetch}, {@code bench-upload} and {@code bench-read}, each creating its own meter and
 * handing it to the local runner ({@code LocalSpiderling.Options.withMetering}); never by the functions, nor by a
 * user's run.
 *
 * <p><b>Load per key.</b> Every DynamoDB call's billed units are also charged to the partition-key values it touched
 * ({@link io.spiderling.local.cost.KeyAttribution}): a single-item call to its key, a Query to the key its condition
 * names, a Scan to the pseudo-key {@code (scan)}, each action of a transaction to its own item, and a batch's units for
 * a table split over its items by their sizes, so that the keys of a table always sum to the table's bill. On a table
 * with a local index a key is the item collection. {@link io.spiderling.local.cost.KeyLoadReport} prints, per table,
 * the units per URL, the hottest key, and the crawl rates AWS's limits allow: 1,000 WRU/s and 3,000 RRU/s per key, the
 * table's quota per table, each divided by the units one URL costs. Keys are named by their shape
 * ({@link io.spiderling.local.cost.KeyShape}, the one place that knows the stores' key prefixes), but every ceiling is
 * computed from the single hottest key value. Keys only one site touches (its rate item, robots.txt copy, frontier)
 * are judged per URL of their site against ten times the site's allowed rate, since politeness bounds their load.
 */
package io.spiderling.local.cost;
