package io.spiderling.local.cost;

import io.spiderling.catalog.Catalog;
import io.spiderling.local.cost.AwsPrices.Architecture;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A phase's AWS usage per URL and in dollars per million URLs, as text. The figures count what the pipeline's
 * accounts did (the functions, their queues' event sources, a client's upload); the harness's own calls, the local
 * runner's stand-ins and anything unattributed are listed apart and priced nowhere.
 *
 * @param phase what was measured, for the heading
 * @param usage the phase: a difference of two {@link Metering#snapshot()}s
 * @param urls the URLs the figures are divided by (fetched and not-modified in the phase, or planned)
 * @param unit what a URL is here ("fetched URL", "planned URL")
 */
public record CostReport(String phase, Usage usage, long urls, String unit, AwsPrices prices,
        Architecture architecture) {

    /** The pipeline's part of the phase. */
    public Usage pipeline() {
        return usage.accounts(Metering::pipeline);
    }

    /** The pipeline's dollars per million URLs. */
    public Dollars perMillion() {
        return Dollars.of(pipeline(), prices, architecture).perMillion(urls);
    }

    public String render() {
        StringBuilder out = new StringBuilder();
        Usage p = pipeline();
        double n = Math.max(1, urls);
        line(out, "== %s: per %s, over %,d ==", phase, unit, urls);

        Map<String, Usage.Calls> services = p.byService();
        Usage.Invocations lambda = p.totalInvocations();
        long requests = services.values().stream().mapToLong(Usage.Calls::calls).sum();
        StringBuilder perService = new StringBuilder();
        services.forEach((service, c) -> perService.append(String.format(Locale.ROOT, ", %s %.2f", service,
                c.calls() / n)));
        line(out, "requests: %.2f AWS calls%s; Lambda invocations %.2f", requests / n, perService, lambda.count() / n);
        Usage.Calls dynamo = p.total("DynamoDB"::equals);
        line(out, "DynamoDB: %.2f WRU, %.2f RRU (refused conditional writes and cancelled transactions: %.3f)",
                dynamo.writeUnits() / n, dynamo.readUnits() / n, dynamo.refused() / n);
        line(out, "Lambda: %.5f GB-s (%.1f ms billed), logs %,.0f bytes (Lambda's START/END/REPORT lines %d bytes"
                + " an invocation included)", lambda.gbSeconds() / n, lambda.billedMillis() / n, lambda.logBytes() / n,
                Billing.LAMBDA_PLATFORM_LOG_BYTES);

        Dollars d = perMillion();
        Dollars other = Dollars.of(p, prices, architecture == Architecture.ARM64 ? Architecture.X86_64
                : Architecture.ARM64).perMillion(urls);
        line(out, "$ per million %ss (US East list prices of %s, Lambda on %s):", unit, prices.asOf(),
                architecture == Architecture.ARM64 ? "arm64" : "x86_64");
        line(out, "  %-16s %9.2f  (writes %.2f, reads %.2f)", "DynamoDB", d.dynamoDb(), d.dynamoDbWrites(),
                d.dynamoDbReads());
        line(out, "  %-16s %9.2f  (requests %.2f, duration %.2f; %.2f on %s)", "Lambda", d.lambda(),
                d.lambdaRequests(), d.lambdaDuration(), other.lambda(),
                architecture == Architecture.ARM64 ? "x86_64" : "arm64");
        line(out, "  %-16s %9.2f  (PUT class %.2f, GET class %.2f)", "S3", d.s3(), d.s3PutClass(), d.s3GetClass());
        line(out, "  %-16s %9.2f", "SQS", d.sqs());
        line(out, "  %-16s %9.2f", "CloudWatch Logs", d.logs());
        line(out, "  %-16s %9.2f", "API Gateway", d.apiGateway());
        line(out, "  %-16s %9.2f", "total", d.total());
        Dollars scheduled = Dollars.of(scheduleDriven(p), prices, architecture).perMillion(urls);
        line(out, "  of which schedule-driven %.2f: the sweep (every second here, every minute on AWS) and empty"
                + " receives (1 s polls here, 20 s long polls on AWS)", scheduled.total());

        p.storedBytes().forEach((prefix, bytes) -> line(out, "S3 storage written: %s%,d bytes (%,.0f a %s), $%.6f a"
                + " month; $%.2f a month per million %ss; not in the total", prefix.isEmpty() ? "" : prefix + " ",
                bytes, bytes / n, unit, prices.s3StoragePerMonth(bytes), prices.s3StoragePerMonth(bytes) * 1e6 / n,
                unit));

        line(out, "by account, per %s:", unit);
        line(out, "  %-28s %7s %9s %7s %7s %7s %7s %7s %7s %8s", "account", "invoc", "GB-s", "log B", "DDB",
                "WRU", "RRU", "SQS", "S3", "$/M");
        Set<String> accounts = new TreeSet<>(p.invocations().keySet());
        p.calls().keySet().forEach(c -> accounts.add(c.account()));
        for (String account : accounts) {
            Usage a = p.accounts(account::equals);
            Usage.Invocations i = a.totalInvocations();
            Usage.Calls ddb = a.total("DynamoDB"::equals);
            long sqs = a.total(s -> s.startsWith("SQS")).billedRequests();
            long s3 = a.total("S3"::equals).calls();
            line(out, "  %-28s %7.3f %9.5f %7.0f %7.2f %7.2f %7.2f %7.2f %7.2f %8.2f", account, i.count() / n,
                    i.gbSeconds() / n, i.logBytes() / n, ddb.calls() / n, ddb.writeUnits() / n, ddb.readUnits() / n,
                    sqs / n, s3 / n, Dollars.of(a, prices, architecture).perMillion(urls).total());
        }
        line(out, "by service and operation, per %s:", unit);
        line(out, "  %-44s %8s %8s %7s %7s %8s", "operation", "calls", "billed", "WRU", "RRU", "refused");
        p.byOperation().forEach((call, c) -> line(out, "  %-44s %8.3f %8.3f %7.2f %7.2f %8.3f",
                call.service() + " " + call.operation(), c.calls() / n, c.billedRequests() / n, c.writeUnits() / n,
                c.readUnits() / n, c.refused() / n));
        StringBuilder apart = new StringBuilder();
        usage.accounts(a -> !Metering.pipeline(a)).byAccount(s -> true).forEach((account, c) ->
                apart.append(String.format(Locale.ROOT, "%s%s %,d calls", apart.isEmpty() ? "" : "; ", account,
                        c.calls())));
        usage.accounts(a -> !Metering.pipeline(a)).invocations().forEach((account, i) ->
                apart.append(String.format(Locale.ROOT, "; %s %,d invocations", account, i.count())));
        line(out, "not in the figures: %s", apart.isEmpty() ? "nothing" : apart);
        return out.toString();
    }

    /** The sweep's invocations and calls, and the receives that found no message. */
    static Usage scheduleDriven(Usage pipeline) {
        Map<Usage.Call, Usage.Calls> calls = new java.util.TreeMap<>();
        pipeline.calls().forEach((k, v) -> {
            if (k.account().equals(SWEEP) || k.operation().endsWith("(empty)")) {
                calls.put(k, v);
            }
        });
        Map<String, Usage.Invocations> invocations = new java.util.TreeMap<>();
        pipeline.invocations().forEach((k, v) -> {
            if (k.equals(SWEEP)) {
                invocations.put(k, v);
            }
        });
        return new Usage(calls, invocations, Map.of());
    }

    private static final String SWEEP = Catalog.function(io.spiderling.catalog.FunctionNames.SWEEP).name();

    private static void line(StringBuilder out, String format, Object... args) {
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}
