package io.spiderling.core.signing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The key set as a running function sees it: read when first needed and again once older than {@code ttl}, so a key
 * added for rotation is published and, from its {@code nbf}, used, without a redeploy. A read that fails after a good
 * copy keeps the good copy until the next try; a first read that fails throws. Thread-safe; between reads a caller
 * takes no lock.
 */
public final class RefreshingKeyRing implements Supplier<KeyRing> {

    private final Supplier<String> text;
    private final Duration ttl;
    private final Clock clock;
    private volatile KeyRing current;
    private volatile Instant readAt = Instant.MIN;

    /** @param text reads the key set's text (a file, or a secret); may throw */
    public RefreshingKeyRing(Supplier<String> text, Duration ttl, Clock clock) {
        if (ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must not be negative, was " + ttl);
        }
        this.text = Objects.requireNonNull(text, "text");
        this.ttl = ttl;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public KeyRing get() {
        KeyRing ring = current;
        if (ring != null && clock.instant().isBefore(readAt.plus(ttl))) {
            return ring;
        }
        return refresh();
    }

    private synchronized KeyRing refresh() {
        Instant now = clock.instant();
        if (current != null && now.isBefore(readAt.plus(ttl))) {
            return current;
        }
        try {
            current = KeyRing.parse(text.get());
        } catch (RuntimeException e) {
            if (current == null) {
                throw new IllegalStateException("cannot read the signing keys: " + e.getMessage(), e);
            }
        }
        readAt = now;
        return current;
    }
}
