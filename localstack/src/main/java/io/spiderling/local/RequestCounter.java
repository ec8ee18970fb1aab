package io.spiderling.local;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Counts every AWS SDK call made in this JVM, by service and operation, for the benchmarks' "requests per URL". The
 * SDK loads it into every client through {@code software/amazon/awssdk/global/handlers/execution.interceptors}; it
 * only increments counters. Retries of one call count once.
 */
public final class RequestCounter implements ExecutionInterceptor {

    private static final Map<String, LongAdder> CALLS = new ConcurrentHashMap<>();

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        String service = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME);
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        CALLS.computeIfAbsent(service + " " + operation, k -> new LongAdder()).increment();
    }

    /** Calls so far, by "service operation", sorted. */
    public static Map<String, Long> snapshot() {
        Map<String, Long> copy = new TreeMap<>();
        CALLS.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }

    /** Calls so far of one service, as the SDK names it: "DynamoDb", "Sqs", "S3". */
    public static long total(Map<String, Long> snapshot, String service) {
        return snapshot.entrySet().stream().filter(e -> e.getKey().startsWith(service + " "))
                .mapToLong(Map.Entry::getValue).sum();
    }
}
