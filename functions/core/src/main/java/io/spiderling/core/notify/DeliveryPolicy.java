package io.spiderling.core.notify;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * What the notify function does after one attempt to deliver a webhook: done, try again after a delay, or give up.
 *
 * <p><b>What is retried.</b> Any 2xx delivers. A 3xx gives up: redirects are not followed, because the target of a
 * redirect was never checked against the callback allow-list and address policy, and a receiver that moved should
 * update its URL. Other 4xx give up too, asking again gets the same answer, except 408 (Request Timeout), 425 (Too
 * Early) and 429 (Too Many Requests), which say "not now". Those three, every 5xx, every other status and every
 * transport failure (timeout, refused connection, DNS, TLS, a broken read) are retried until {@code maxAttempts}
 * attempts have been made (8 by default). A receiver that is down for a deploy or an outage of a few minutes still
 * gets its events. A {@link Attempt.Blocked} attempt, where the SSRF guard refused the callback's address at send
 * time, gives up at once: the address will not become public by waiting, and retrying would only probe it again.
 *
 * <p><b>When.</b> After attempt n the nominal delay is {@code d = min(maxDelay, baseDelay × 2^(n−1))}: 10 s, 20 s,
 * 40 s, … 640 s by default, so eight attempts span about 10 to 21 minutes. The wait is "equal jitter": a whole number
 * of seconds drawn uniformly from {@code [d/2, d]}. The guaranteed half keeps a struggling receiver from being hit
 * again at once; the random half spreads the retries of the many batches that one receiver outage failed together.
 * Delays are whole seconds and at most 15 minutes because the retry is a queue message's delay, and SQS takes an
 * integer {@code DelaySeconds} of at most 900. {@code Retry-After} is not read: the cap is already short, and a
 * receiver that sets a long one would have it cut anyway.
 */
public final class DeliveryPolicy {

    /** The longest delay a queue message can carry: SQS's {@code DelaySeconds} maximum. */
    public static final Duration MAX_DELAY = Duration.ofMinutes(15);

    /**
     * @param maxAttempts attempts in all, the first included
     * @param baseDelay the nominal delay after the first attempt, whole seconds
     * @param maxDelay the longest nominal delay, whole seconds, at most {@link #MAX_DELAY}
     */
    public record Settings(int maxAttempts, Duration baseDelay, Duration maxDelay) {

        public static final Settings DEFAULTS = new Settings(8, Duration.ofSeconds(10), MAX_DELAY);

        public Settings {
            Objects.requireNonNull(baseDelay, "baseDelay");
            Objects.requireNonNull(maxDelay, "maxDelay");
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
            }
            if (baseDelay.getNano() != 0 || maxDelay.getNano() != 0) {
                throw new IllegalArgumentException("delays must be whole seconds, were " + baseDelay + " and "
                        + maxDelay);
            }
            if (baseDelay.compareTo(Duration.ofSeconds(1)) < 0 || maxDelay.compareTo(baseDelay) < 0
                    || maxDelay.compareTo(MAX_DELAY) > 0) {
                throw new IllegalArgumentException("need 1 s <= baseDelay <= maxDelay <= " + MAX_DELAY + ", were "
                        + baseDelay + " and " + maxDelay);
            }
        }
    }

    /** How a transport failure happened; the words appear in reasons. */
    public enum Failure {
        /** No answer in time. */
        TIMEOUT,
        /** The connection was refused or reset. */
        CONNECT,
        /** The callback host did not resolve. */
        DNS,
        /** The TLS handshake failed, for example on an expired certificate. */
        TLS,
        /** Any other failure to send the request or read the answer. */
        IO;

        String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The outcome of one delivery attempt. */
    public sealed interface Attempt {

        /** How the outcome appears in a reason: {@code http 503}, {@code timeout: read timed out}. */
        String describe();

        static Attempt status(int status) {
            return new Answered(status);
        }

        static Attempt failed(Failure failure, String detail) {
            return new Failed(failure, detail);
        }

        static Attempt blocked(String reason) {
            return new Blocked(reason);
        }

        /** The receiver answered with {@code status}. */
        record Answered(int status) implements Attempt {

            public Answered {
                if (status < 100 || status > 599) {
                    throw new IllegalArgumentException("not an HTTP status: " + status);
                }
            }

            @Override
            public String describe() {
                return "http " + status;
            }
        }

        /** No answer: the request could not be sent or its answer not read. */
        record Failed(Failure failure, String detail) implements Attempt {

            public Failed {
                Objects.requireNonNull(failure, "failure");
                detail = detail == null ? "" : detail.strip();
            }

            @Override
            public String describe() {
                return detail.isEmpty() ? failure.word() : failure.word() + ": " + detail;
            }
        }

        /**
         * Nothing was sent: the callback check at send time refused the URL or its address.
         *
         * @param reason the refusal, as {@link CallbackPolicy} words it
         */
        record Blocked(String reason) implements Attempt {

            public Blocked {
                Objects.requireNonNull(reason, "reason");
            }

            @Override
            public String describe() {
                return "blocked: " + reason;
            }
        }
    }

    /** What {@link #decide} decided. */
    public sealed interface Decision {

        /** The receiver took the event. */
        record Delivered() implements Decision {}

        /**
         * Send the event again after {@code delay}, as the next attempt.
         *
         * @param delay whole seconds, at most {@link #MAX_DELAY}
         * @param reason what went wrong this time ({@link Attempt#describe()})
         */
        record Retry(Duration delay, String reason) implements Decision {

            public Retry {
                Objects.requireNonNull(delay, "delay");
                Objects.requireNonNull(reason, "reason");
            }
        }

        /**
         * Stop sending this event.
         *
         * @param reason why: {@code http 404}, {@code http 301: redirects are not followed},
         *     {@code blocked: <refusal>}, or {@code gave up after 8 attempts: http 503}
         */
        record GiveUp(String reason) implements Decision {

            public GiveUp {
                Objects.requireNonNull(reason, "reason");
            }
        }
    }

    private static final DeliveryPolicy DEFAULT = new DeliveryPolicy(Settings.DEFAULTS);

    private final Settings settings;

    private DeliveryPolicy(Settings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    public static DeliveryPolicy create() {
        return DEFAULT;
    }

    public static DeliveryPolicy create(Settings settings) {
        return new DeliveryPolicy(settings);
    }

    public Settings settings() {
        return settings;
    }

    /**
     * Decides what follows an attempt.
     *
     * @param outcome what the attempt got
     * @param attempt the attempt that got it, 1 for the first
     * @param jitter01 uniformly random in [0, 1), as {@code Random.nextDouble()} returns
     */
    public Decision decide(Attempt outcome, int attempt, double jitter01) {
        Objects.requireNonNull(outcome, "outcome");
        requireAttempt(attempt);
        requireJitter(jitter01);
        String reason = outcome.describe();
        switch (outcome) {
            case Attempt.Answered a when a.status() >= 200 && a.status() < 300 -> {
                return new Decision.Delivered();
            }
            case Attempt.Answered a when a.status() >= 300 && a.status() < 400 -> {
                return new Decision.GiveUp(reason + ": redirects are not followed");
            }
            case Attempt.Answered a when a.status() >= 400 && a.status() < 500 && !retryable4xx(a.status()) -> {
                return new Decision.GiveUp(reason);
            }
            case Attempt.Blocked b -> {
                return new Decision.GiveUp(reason);
            }
            default -> {
                // 408, 425, 429, 1xx, 5xx and transport failures: worth another attempt
            }
        }
        if (attempt >= settings.maxAttempts()) {
            return new Decision.GiveUp("gave up after " + attempt + (attempt == 1 ? " attempt: " : " attempts: ")
                    + reason);
        }
        return new Decision.Retry(backoff(attempt, jitter01), reason);
    }

    /**
     * The wait after attempt {@code attempt}: whole seconds, uniform over {@code [d/2, d]} for the nominal delay d.
     *
     * @param jitter01 uniformly random in [0, 1)
     */
    public Duration backoff(int attempt, double jitter01) {
        requireAttempt(attempt);
        requireJitter(jitter01);
        long max = settings.maxDelay().toSeconds();
        long nominal = settings.baseDelay().toSeconds();
        for (int i = 1; i < attempt && nominal < max; i++) {
            nominal *= 2;
        }
        nominal = Math.min(nominal, max);
        long fixed = nominal / 2;
        // 0 … nominal − fixed whole seconds, each equally likely, so both ends of [d/2, d] can be drawn
        long random = (long) Math.floor(jitter01 * (nominal - fixed + 1));
        return Duration.ofSeconds(fixed + random);
    }

    private static boolean retryable4xx(int status) {
        return status == 408 || status == 425 || status == 429;
    }

    private static void requireAttempt(int attempt) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be at least 1, was " + attempt);
        }
    }

    private static void requireJitter(double jitter01) {
        if (!(jitter01 >= 0 && jitter01 < 1)) {
            throw new IllegalArgumentException("jitter must be in [0, 1), was " + jitter01);
        }
    }

    @Override
    public String toString() {
        return "DeliveryPolicy" + settings;
    }
}
