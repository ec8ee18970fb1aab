package io.spiderling.core.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The clients file as a running function sees it: read when first needed, and read again once the copy is older than
 * {@code ttl}, so a rotated secret (or an edited file) takes effect without a redeploy, within {@code ttl}.
 *
 * <p>A read that fails, or text that does not parse, after a good copy keeps the good copy until the next try, one
 * {@code ttl} later: a half-finished rotation must not lock every client out. A first read that fails throws, since
 * there is nothing to fall back on. Thread-safe.
 */
public final class RefreshingClients implements Supplier<Clients> {

    private final Supplier<String> text;
    private final Duration ttl;
    private final Clock clock;
    private Clients current;
    private Instant readAt;

    /** @param text reads the clients file's text (a file, or a secret); may throw */
    public RefreshingClients(Supplier<String> text, Duration ttl, Clock clock) {
        if (ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must not be negative, was " + ttl);
        }
        this.text = Objects.requireNonNull(text, "text");
        this.ttl = ttl;
        this.clock = clock;
    }

    @Override
    public synchronized Clients get() {
        Instant now = clock.instant();
        if (current != null && now.isBefore(readAt.plus(ttl))) {
            return current;
        }
        try {
            current = Clients.parse(text.get());
        } catch (RuntimeException e) {
            if (current == null) {
                throw new IllegalStateException("cannot read the clients: " + e.getMessage(), e);
            }
        }
        readAt = now;
        return current;
    }
}
