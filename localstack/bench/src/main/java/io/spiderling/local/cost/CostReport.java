package io.spiderling.local.cost;

import io.spiderling.catalog.FunctionNames;
import io.spiderling.local.cost.AwsPrices.Architecture;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
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
 * @param sites the busiest site's URLs and rate, to judge the keys only one site touches ({@link KeyLoadReport})
 */
public record CostReport(String phase, Usage usage, long urls, String unit, AwsPrices prices,
        Architecture architecture, Optional<KeyLoadReport.Sites> sites) {

    private static final Account SWEEP = Account.function(FunctionNames.SWEEP);
    /** Rows of the calls by key shape: enough to cover the calls that matter, few enough to read. */
    static final int SHAPE_ROWS = 25;

    public CostReport(String phase, Usage usage, long urls, String unit, AwsPrices prices,
            Architecture architecture) {
        this(phase, usage, urls, unit, prices, architecture, Optional.empty());
    }

    /** The pipeline's DynamoDB load per table and per partition key. */
    public KeyLoadReport keyLoad() {
        return new KeyLoadReport(usage.keys(), urls, unit, sites);
    }

    /** The pipeline's part of the phase. */
    public Usage pipeline() {
        return usage.accounts(Account::pipeline);
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
        services.forEach((service, c) -> perService.append(", ").append(service).append(' ')
                .append(num(c.calls() / n)));
        Usage scheduled = scheduleDriven(p);
        long scheduledCalls = scheduled.total(service -> true).calls();
        line(out, "requests: %s AWS calls%s; Lambda invocations %s", num(requests / n), perService,
                num(lambda.count() / n));
        line(out, "  %s of them schedule-driven (below), so %s AWS calls without them", num(scheduledCalls / n),
                num((requests - scheduledCalls) / n));
        Usage.Calls dynamo = p.total("DynamoDB"::equals);
        line(out, "DynamoDB: %s WRU, %s RRU (refused conditional writes and cancelled transactions: %s)",
                num(dynamo.writeUnits() / n), num(dynamo.readUnits() / n), num(dynamo.refused() / n));
        line(out, "Lambda: %s GB-s (%s ms billed), logs %s bytes (Lambda's START/END/REPORT lines, %d bytes an"
                + " invocation, included)", num(lambda.gbSeconds() / n), num(lambda.billedMillis() / n),
                num(lambda.logBytes() / n), Billing.LAMBDA_PLATFORM_LOG_BYTES);

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
        Dollars scheduledDollars = Dollars.of(scheduled, prices, architecture).perMillion(urls);
        line(out, "  of which schedule-driven %.2f: the sweep (every second here, every minute on AWS) and empty"
                + " receives (1 s polls here, 20 s long polls on AWS)", scheduledDollars.total());

        p.storedBytes().forEach((prefix, bytes) -> line(out, "S3 storage written: %s%,d bytes (%s a %s): $%.2f a"
                + " month per million %ss, not in the total", prefix.isEmpty() ? "" : prefix + " ", bytes,
                num(bytes / n), unit, prices.s3StoragePerMonth(bytes) * 1e6 / n, unit));

        line(out, "by account, per %s:", unit);
        line(out, "  %-32s %9s %9s %9s %9s %9s %9s %9s %9s %9s", "account", "invoc", "GB-s", "log B", "DDB calls",
                "WRU", "RRU", "SQS req", "S3 req", "$/M");
        Set<Account> accounts = new TreeSet<>(p.invocations().keySet());
        p.calls().keySet().forEach(c -> accounts.add(c.account()));
        for (Account account : accounts) {
            Usage a = p.accounts(account::equals);
            Usage.Invocations i = a.totalInvocations();
            Usage.Calls ddb = a.total("DynamoDB"::equals);
            long sqs = a.total(s -> s.startsWith("SQS")).billedRequests();
            long s3 = a.total("S3"::equals).calls();
            line(out, "  %-32s %9s %9s %9s %9s %9s %9s %9s %9s %9.2f", account, num(i.count() / n),
                    num(i.gbSeconds() / n), num(i.logBytes() / n), num(ddb.calls() / n), num(ddb.writeUnits() / n),
                    num(ddb.readUnits() / n), num(sqs / n), num(s3 / n),
                    Dollars.of(a, prices, architecture).perMillion(urls).total());
        }
        line(out, "by service and operation, per %s:", unit);
        line(out, "  %-44s %9s %9s %9s %9s %9s", "operation", "calls", "billed", "WRU", "RRU", "refused");
        p.byOperation().forEach((call, c) -> line(out, "  %-44s %9s %9s %9s %9s %9s",
                call.service() + " " + call.operation(), num(c.calls() / n), num(c.billedRequests() / n),
                num(c.writeUnits() / n), num(c.readUnits() / n), num(c.refused() / n)));
        if (!p.shapeCalls().isEmpty()) {
            line(out, "DynamoDB calls by account, operation and the key shapes they touched, per %s (the %d most):",
                    unit, SHAPE_ROWS);
            p.shapeCalls().entrySet().stream()
                    .sorted(Map.Entry.<Usage.Call, Long>comparingByValue().reversed()
                            .thenComparing(Map.Entry.comparingByKey()))
                    .limit(SHAPE_ROWS)
                    .forEach(e -> line(out, "  %9s  %-14s %s", num(e.getValue() / n), e.getKey().account(),
                            e.getKey().operation()));
        }
        StringBuilder apart = new StringBuilder();
        usage.accounts(a -> !a.pipeline()).byAccount(s -> true).forEach((account, c) ->
                apart.append(String.format(Locale.ROOT, "%s%s %,d calls", apart.isEmpty() ? "" : "; ", account,
                        c.calls())));
        usage.accounts(a -> !a.pipeline()).invocations().forEach((account, i) ->
                apart.append(String.format(Locale.ROOT, "; %s %,d invocations", account, i.count())));
        line(out, "not in the figures: %s", apart.isEmpty() ? "nothing" : apart);
        if (!usage.keys().isEmpty()) {
            out.append(keyLoad().render());
        }
        return out.toString();
    }

    /** The sweep's invocations and calls, and the receives that found no message. */
    static Usage scheduleDriven(Usage pipeline) {
        Map<Usage.Call, Usage.Calls> calls = new TreeMap<>();
        pipeline.calls().forEach((k, v) -> {
            if (k.account().equals(SWEEP) || k.operation().endsWith("(empty)")) {
                calls.put(k, v);
            }
        });
        Map<Account, Usage.Invocations> invocations = new TreeMap<>();
        pipeline.invocations().forEach((k, v) -> {
            if (k.equals(SWEEP)) {
                invocations.put(k, v);
            }
        });
        return new Usage(calls, invocations, Map.of());
    }

    /** Three significant digits, no exponent: 19.6, 0.00213, 1,234. */
    public static String num(double value) {
        if (value == 0) {
            return "0";
        }
        if (Math.abs(value) >= 100) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return new java.math.BigDecimal(value).round(new java.math.MathContext(3)).stripTrailingZeros()
                .toPlainString();
    }

    private static void line(StringBuilder out, String format, Object... args) {
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}
