package io.spiderling.local;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * The rate slots the pipeline granted, read from its own successful writes of the sites' rate items: every granted
 * slot is a lease in the item's {@code inFlight} set when the grant is written. Observes only; fails nothing. With
 * it, the fault checks judge the rate exactly, whatever the delay between a slot and the request's arrival in the
 * site's log.
 */
final class RateSlots implements ExecutionInterceptor {

    private final Map<String, ConcurrentSkipListSet<Long>> bySite = new ConcurrentHashMap<>();

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        if (!(context.request() instanceof PutItemRequest put)) {
            return;
        }
        AttributeValue pk = put.item().get("pk");
        AttributeValue inFlight = put.item().get("inFlight");
        if (pk == null || pk.s() == null || !pk.s().startsWith("RATE#") || inFlight == null || !inFlight.hasNs()) {
            return;
        }
        ConcurrentSkipListSet<Long> slots = bySite.computeIfAbsent(pk.s().substring("RATE#".length()),
                k -> new ConcurrentSkipListSet<>());
        inFlight.ns().forEach(n -> slots.add(Long.parseLong(n)));
    }

    /** The slots granted for the site whose rate key contains {@code host}, in order. */
    List<Instant> of(String host) {
        return bySite.entrySet().stream().filter(e -> e.getKey().contains(host))
                .flatMap(e -> e.getValue().stream()).sorted().map(Instant::ofEpochMilli).toList();
    }
}
