/**
 * What a local run would cost on AWS: {@link io.spiderling.local.cost.Metering} charges every SDK call, handler
 * invocation and logged byte to the function (or event source, harness, stand-in) on whose behalf it was made;
 * {@link io.spiderling.local.cost.CapacityUnits} and {@link io.spiderling.local.cost.Billing} hold AWS's billing
 * rules, {@link io.spiderling.local.cost.AwsPrices} the dated price table, and
 * {@link io.spiderling.local.cost.CostReport} prints a phase per URL and per million URLs. Used by
 * {@code ./spiderling bench-fetch}, {@code bench-upload} and {@code bench-read}, each creating its own meter and
 * handing it to the local runner ({@code LocalSpiderling.Options.withMetering}); never by the functions, nor by a
 * user's run.
 */
package io.spiderling.local.cost;
