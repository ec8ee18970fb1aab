package io.spiderling.local;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.spiderling.catalog.FunctionSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Where a single-URL batch's time goes ({@code bench-single --stages}): a meter that notes when each function's
 * invocation starts and ends, and each SDK call made (by a function, or by a thread of the runner, named in brackets),
 * relative to the batch's submit. One batch at a time: every mark while it is in flight is shown with it, the tail of
 * the batch before and the benchmark's own polls of the API included.
 */
final class StageTrace implements Meter {

    private record Mark(long nanos, String what) {}

    private final ConcurrentLinkedQueue<Mark> marks = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<String> function = new ThreadLocal<>();
    /** Per stage, its offsets from submit in every batch traced, in milliseconds. */
    private final Map<String, List<Long>> offsets = new LinkedHashMap<>();
    /** Every batch's marks in order, as offsets from submit. */
    private final List<List<String>> timelines = new ArrayList<>();
    private final List<Long> totals = new ArrayList<>();
    private volatile boolean on;
    private long submitted;

    private java.time.Instant submittedAt;

    void start() {
        marks.clear();
        submitted = System.nanoTime();
        submittedAt = java.time.Instant.now();
        on = true;
    }

    /** Something seen outside the functions at a wall-clock instant: the site's receipt of the request. */
    void markInstant(String what, java.time.Instant at) {
        marks.add(new Mark(submitted + java.time.Duration.between(submittedAt, at).toNanos(), what));
    }

    void mark(String what) {
        if (on) {
            marks.add(new Mark(System.nanoTime(), what));
        }
    }

    /** Ends the batch's trace: keeps each stage's first offset. */
    void stop(long totalMillis) {
        on = false;
        totals.add(totalMillis);
        timelines.add(marks.stream().sorted(java.util.Comparator.comparingLong(Mark::nanos)).map(m -> String.format(Locale.ROOT, "%6d  %s",
                (m.nanos() - submitted) / 1_000_000, m.what())).toList());
        Map<String, Long> first = new LinkedHashMap<>();
        for (Mark m : marks) {
            first.putIfAbsent(m.what(), (m.nanos() - submitted) / 1_000_000);
        }
        first.forEach((what, ms) -> offsets.computeIfAbsent(what, k -> new ArrayList<>()).add(ms));
    }

    /** Each stage's median offset from submit, in the order stages first happened. */
    String report() {
        int median = 0;
        List<Long> sortedTotals = totals.stream().sorted().toList();
        long medianTotal = sortedTotals.get(sortedTotals.size() / 2);
        for (int i = 0; i < totals.size(); i++) {
            if (totals.get(i) == medianTotal) {
                median = i;
            }
        }
        StringBuilder out = new StringBuilder("the median batch (" + medianTotal + " ms to metadata), in order:\n");
        timelines.get(median).forEach(line -> out.append(line).append('\n'));
        out.append("stage (first occurrence)                               p50 ms   p90 ms   n\n");
        offsets.entrySet().stream()
                .sorted(Map.Entry.comparingByValue((a, b) -> Long.compare(median(a), median(b))))
                .forEach(e -> out.append(String.format(Locale.ROOT, "%-52s %7d %8d %4d%n", e.getKey(),
                        median(e.getValue()), pct(e.getValue(), 90), e.getValue().size())));
        return out.toString();
    }

    private static long median(List<Long> values) {
        return pct(values, 50);
    }

    private static long pct(List<Long> values, int p) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(Math.max(0, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }

    @Override
    public List<ExecutionInterceptor> interceptors() {
        return List.of(new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                mark(who() + " " + attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME) + "."
                        + attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME) + " start"
                        + target(context.request()));
            }

            @Override
            public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
                mark(who() + " " + attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME) + "."
                        + attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME) + " end");
            }
        });
    }

    /** A single-item DynamoDB call's table and key, shortened: what a read or write is for. */
    private static String target(software.amazon.awssdk.core.SdkRequest request) {
        Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> key = switch (request) {
            case software.amazon.awssdk.services.dynamodb.model.GetItemRequest get -> get.key();
            case software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest update -> update.key();
            case software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest delete -> delete.key();
            case software.amazon.awssdk.services.dynamodb.model.PutItemRequest put -> put.item();
            default -> Map.of();
        };
        if (key.isEmpty()) {
            return "";
        }
        String table = request.getValueForField("TableName", String.class).orElse("?");
        String first = key.values().stream().map(v -> v.s() == null ? "" : v.s()).findFirst().orElse("");
        return " " + table.replaceAll(".*-", "") + " " + first.replaceAll("^(.{0,16}).*", "$1");
    }

    /** The function on whose behalf the thread runs, or the thread's name without its number. */
    private String who() {
        String f = function.get();
        return f != null ? f : "[" + Thread.currentThread().getName().replaceAll("[-0-9]+$", "") + "]";
    }

    @Override
    public <I, O> RequestHandler<I, O> handler(FunctionSpec spec, RequestHandler<I, O> handler) {
        return (input, context) -> traced(spec.name(), () -> handler.handleRequest(input, context));
    }

    @Override
    public <O> RequestHandler<APIGatewayV2HTTPEvent, O> httpHandler(FunctionSpec spec,
            RequestHandler<APIGatewayV2HTTPEvent, O> handler) {
        return (input, context) -> traced(spec.name(), () -> handler.handleRequest(input, context));
    }

    private <O> O traced(String name, java.util.function.Supplier<O> call) {
        String before = function.get();
        function.set(name);
        mark(name + " invoked");
        try {
            return call.get();
        } finally {
            mark(name + " returned");
            function.set(before);
        }
    }
}
