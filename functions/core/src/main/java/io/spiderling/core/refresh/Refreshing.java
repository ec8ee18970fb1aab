package io.spiderling.core.refresh;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A value read from a text (a file, or a secret) as a running function sees it: read when first needed, and read again
 * once the copy is older than {@code ttl}, so a rotated secret or an edited file takes effect without a redeploy,
 * within {@code ttl}. The clients file and the signing keys are both read so.
 *
 * <p>A read that fails, or text that does not parse, after a good copy keeps the good copy until the next try, one
 * {@code ttl} later: a half-finished rotation must not lock every client out, nor stop the signing. A first read that
 * fails throws, since there is nothing to fall back on. Thread-safe; between reads a caller takes no lock.
 *
 * @param <T> what the text parses to
 */
public final class Refreshing<T> implements Supplier<T> {

    private final Supplier<String> text;
    private final Function<String, T> parse;
    private final String what;
    private final Duration ttl;
    private final Clock clock;
    private volatile T current;
    private volatile Instant readAt = Instant.MIN;

    /**
     * @param text reads the text; may throw
     * @param parse parses it; may throw
     * @param what names the value in the error of a first read that fails ({@code "the clients"})
     */
    public Refreshing(Supplier<String> text, Function<String, T> parse, String what, Duration ttl, Clock clock) {
        if (ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must not be negative, was " + ttl);
        }
        this.text = Objects.requireNonNull(text, "text");
        this.parse = Objects.requireNonNull(parse, "parse");
        this.what = Objects.requireNonNull(what, "what");
        this.ttl = ttl;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public T get() {
        T value = current;
        if (value != null && clock.instant().isBefore(readAt.plus(ttl))) {
            return value;
        }
        return refresh();
    }

    private synchronized T refresh() {
        Instant now = clock.instant();
        if (current != null && now.isBefore(readAt.plus(ttl))) {
            return current;
        }
        try {
            current = parse.apply(text.get());
        } catch (RuntimeException e) {
            if (current == null) {
                throw new IllegalStateException("cannot read " + what + ": " + e.getMessage(), e);
            }
        }
        readAt = now;
        return current;
    }
}
