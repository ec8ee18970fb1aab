package io.spiderling.core.testing;

import io.spiderling.core.port.QuotaStore;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** {@link QuotaStore} in memory; a charge is atomic, as the conditional write is. */
public final class InMemoryQuotaStore implements QuotaStore {

    private final Map<String, Long> limits = new HashMap<>();
    private final Map<String, Long> used = new HashMap<>();

    @Override
    public synchronized Optional<Long> limit(String client) {
        return Optional.ofNullable(limits.get(client));
    }

    @Override
    public synchronized void setLimit(String client, long urlsPerDay) {
        limits.put(client, urlsPerDay);
    }

    @Override
    public synchronized long used(String client, LocalDate day) {
        return used.getOrDefault(client + "#" + day, 0L);
    }

    @Override
    public synchronized Charge charge(String client, LocalDate day, long urls, long limit) {
        long now = used(client, day);
        if (now + urls > limit) {
            return new Charge.Refused(now);
        }
        used.put(client + "#" + day, now + urls);
        return new Charge.Charged(now + urls);
    }

    @Override
    public synchronized void refund(String client, LocalDate day, long urls) {
        used.merge(client + "#" + day, -urls, Long::sum);
    }
}
