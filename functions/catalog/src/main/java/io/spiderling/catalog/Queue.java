package io.spiderling.catalog;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The SQS queues of a deployment: kind, dead-letter queue, visibility and retention. The test kit's provisioner and the
 * CDK stack create them from this. A queue a function consumes must hide a message for at least six times that
 * function's timeout (the catalog checks it), as AWS advises for event source mappings.
 */
public enum Queue {

    INGEST_DLQ("ingest-dlq", Kind.STANDARD, Duration.ofSeconds(30), Optional.empty(), Optional.empty()),
    /** URLs clients send (one URL, a list, or {"urls":[…]} per message). */
    INGEST("ingest", Kind.STANDARD, Duration.ofSeconds(360), Optional.of(new DeadLetter(INGEST_DLQ, 5)),
            Optional.empty()),
    /** A FIFO queue dead-letters only into a FIFO queue. Its consumer ends each job as failed(dlq). */
    FETCH_DLQ("fetch-dlq", Kind.FIFO, Duration.ofSeconds(360), Optional.empty(), Optional.empty()),
    /**
     * Fetch jobs, one message group per site. Three receives, then the DLQ: attempts are counted in DynamoDB, so
     * this is only a backstop for a message that keeps failing the handler, and it bounds how long a message lives
     * ({@code visibility × maxReceiveCount}), which the frontier's lost-after must exceed.
     */
    FETCH("fetch", Kind.FIFO, Duration.ofSeconds(360), Optional.of(new DeadLetter(FETCH_DLQ, 3)),
            Optional.of(ConfigKeys.QUEUES_FETCH)),
    PLAN_DLQ("plan-dlq", Kind.STANDARD, Duration.ofSeconds(30), Optional.empty(), Optional.empty()),
    /** One chunk of an uploaded manifest per message; a chunk may take a whole 15-minute invocation. */
    PLAN("plan", Kind.STANDARD, Duration.ofSeconds(5400), Optional.of(new DeadLetter(PLAN_DLQ, 5)),
            Optional.of(ConfigKeys.QUEUES_PLAN)),
    /** Its consumer records a completion delivery the queue gave up on as the callback's failure. */
    NOTIFY_DLQ("notify-dlq", Kind.STANDARD, Duration.ofSeconds(360), Optional.empty(), Optional.empty()),
    /** One callback delivery attempt per message, delayed for backoff and progress reports. */
    NOTIFY("notify", Kind.STANDARD, Duration.ofSeconds(360), Optional.of(new DeadLetter(NOTIFY_DLQ, 5)),
            Optional.of(ConfigKeys.QUEUES_NOTIFY)),
    /**
     * Delayed wake-ups of a site whose jobs wait in the frontier until a due time (a retry, a rate refusal, a robots.txt
     * outage): FIFO queues have no per-message delay, so a standard queue carries one message per site and due time,
     * delayed until then (up to SQS's 15 minutes), and its consumer releases the site's due jobs. One that is lost
     * leaves them to the sweep's next look at the site, up to its period (10 minutes) later.
     */
    WAKE("wake", Kind.STANDARD, Duration.ofSeconds(180), Optional.empty(), Optional.of(ConfigKeys.QUEUES_WAKE)),
    /** url.fetched and batch.completed events for listeners; nothing in the deployment consumes it. */
    EVENTS("events", Kind.STANDARD, Duration.ofSeconds(30), Optional.empty(), Optional.of(ConfigKeys.QUEUES_EVENTS));

    public enum Kind {
        STANDARD,
        /** Ordered per message group, deduplicated by id; the fetch queue uses high-throughput mode. */
        FIFO
    }

    /** Where a message goes after {@code maxReceiveCount} receives. */
    public record DeadLetter(Queue queue, int maxReceiveCount) {}

    /** How long SQS keeps a message: the maximum for dead-letter queues, so an operator has time to look. */
    public static final Duration RETENTION = Duration.ofDays(4);
    public static final Duration DEAD_LETTER_RETENTION = Duration.ofDays(14);

    private final String suffix;
    private final Kind kind;
    private final Duration visibility;
    private final Optional<DeadLetter> deadLetter;
    private final Optional<? extends ConfigKey<?>> configKey;

    Queue(String suffix, Kind kind, Duration visibility, Optional<DeadLetter> deadLetter,
            Optional<? extends ConfigKey<?>> configKey) {
        this.suffix = suffix;
        this.kind = kind;
        this.visibility = visibility;
        this.deadLetter = deadLetter;
        this.configKey = configKey;
    }

    /** The queue's name in a deployment named {@code prefix}; FIFO names end in {@code .fifo}, as SQS requires. */
    public String nameIn(String prefix) {
        return prefix + "-" + suffix + (kind == Kind.FIFO ? ".fifo" : "");
    }

    public String suffix() {
        return suffix;
    }

    public Kind kind() {
        return kind;
    }

    public boolean fifo() {
        return kind == Kind.FIFO;
    }

    public Duration visibility() {
        return visibility;
    }

    public Optional<DeadLetter> deadLetter() {
        return deadLetter;
    }

    /** Whether another queue dead-letters into this one. */
    public boolean isDeadLetterQueue() {
        return Arrays.stream(values()).anyMatch(q -> q.deadLetter.map(d -> d.queue() == this).orElse(false));
    }

    public Duration retention() {
        return isDeadLetterQueue() ? DEAD_LETTER_RETENTION : RETENTION;
    }

    /** The key whose value is this queue's URL, for the functions that send to it; empty for the others. */
    public Optional<? extends ConfigKey<?>> configKey() {
        return configKey;
    }

    public static List<Queue> all() {
        return Arrays.asList(values());
    }
}
