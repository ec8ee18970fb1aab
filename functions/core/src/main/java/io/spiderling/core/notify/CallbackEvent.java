package io.spiderling.core.notify;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one webhook delivery says about a batch: how many of its URLs are in each state, and whether it is done.
 *
 * <p>The event id is derived from the batch, not drawn at random, so every retry of a delivery, and a second notify
 * invocation racing the first, send the same id, and the receiver's deduplication on it works: {@code
 * <batchId>:completed} for the one completion event, {@code <batchId>:progress:<sequence>} for the n-th progress
 * report. The body, from {@link #toJson()}, has a fixed field order and sorted counts, so the same event always has
 * the same bytes:
 * <pre>
 * {"eventId":"b-1:completed","type":"batch.completed","batchId":"b-1","occurredAt":"2026-01-01T00:10:00Z",
 *  "total":3,"done":true,"counts":{"failed":1,"fetched":2}}
 * </pre>
 *
 * @param counts URLs by state name (the {@link io.spiderling.core.batch.ItemState} wire names); an unmodifiable copy
 *     that iterates in name order
 * @param total the batch's accepted URLs
 * @param done whether the batch has finished; true exactly for {@link Type#COMPLETED}
 */
public record CallbackEvent(String eventId, Type type, String batchId, Instant occurredAt,
        Map<String, Integer> counts, int total, boolean done) {

    private static final JsonFactory JSON = JsonFactory.builder().build();

    public enum Type {
        /** The batch has finished: sent once. */
        COMPLETED("batch.completed"),
        /** The batch is still running: sent every progress interval, if the client asked for it. */
        PROGRESS("batch.progress");

        private final String wireName;

        Type(String wireName) {
            this.wireName = wireName;
        }

        /** The {@code type} field of the JSON body. */
        public String wireName() {
            return wireName;
        }
    }

    public CallbackEvent {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(batchId, "batchId");
        Objects.requireNonNull(occurredAt, "occurredAt");
        Objects.requireNonNull(counts, "counts");
        if (eventId.isBlank() || batchId.isBlank()) {
            throw new IllegalArgumentException("eventId and batchId must not be blank");
        }
        if (total < 0) {
            throw new IllegalArgumentException("total must not be negative, was " + total);
        }
        if (done != (type == Type.COMPLETED)) {
            throw new IllegalArgumentException("done must be true exactly for " + Type.COMPLETED.wireName());
        }
        TreeMap<String, Integer> sorted = new TreeMap<>();
        counts.forEach((state, count) -> {
            if (state == null || state.isBlank() || count == null || count < 0) {
                throw new IllegalArgumentException("counts need state names and counts >= 0, got " + state + "="
                        + count);
            }
            sorted.put(state, count);
        });
        counts = Collections.unmodifiableSortedMap(sorted);
    }

    /** The id of a batch's completion event, the same however often it is sent. */
    public static String completedId(String batchId) {
        return batchId + ":completed";
    }

    /** The id of a batch's {@code sequence}-th progress report. */
    public static String progressId(String batchId, long sequence) {
        return batchId + ":progress:" + sequence;
    }

    /** The event that says the batch has finished; its id is {@code <batchId>:completed}. */
    public static CallbackEvent completed(String batchId, Map<String, Integer> counts, int total,
            Instant completedAt) {
        return new CallbackEvent(completedId(batchId), Type.COMPLETED, batchId, completedAt, counts, total,
                true);
    }

    /**
     * The {@code sequence}-th progress report; its id is {@code <batchId>:progress:<sequence>}.
     *
     * @param sequence 1 for the first report, as {@link ProgressSchedule} numbers them
     * @param at when the counts were read
     */
    public static CallbackEvent progress(String batchId, long sequence, Map<String, Integer> counts, int total,
            Instant at) {
        if (sequence < 1) {
            throw new IllegalArgumentException("sequence must be at least 1, was " + sequence);
        }
        return new CallbackEvent(progressId(batchId, sequence), Type.PROGRESS, batchId, at, counts, total,
                false);
    }

    /**
     * The delivery body, UTF-8 JSON: eventId, type, batchId, occurredAt (ISO-8601 in UTC, as
     * {@link Instant#toString()} writes it), total, done, counts. Sign exactly these bytes.
     */
    public byte[] toJson() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            json.writeStartObject();
            json.writeStringField("eventId", eventId);
            json.writeStringField("type", type.wireName());
            json.writeStringField("batchId", batchId);
            json.writeStringField("occurredAt", occurredAt.toString());
            json.writeNumberField("total", total);
            json.writeBooleanField("done", done);
            json.writeObjectFieldStart("counts");
            for (Map.Entry<String, Integer> count : counts.entrySet()) {
                json.writeNumberField(count.getKey(), count.getValue());
            }
            json.writeEndObject();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return out.toByteArray();
    }

    /** Names each of the 7 parts where the value is made. */
    public static Builder builder() {
        return new Builder();
    }

    /** The parts by name; {@link #build} checks them as the constructor does. */
    public static final class Builder {
        private String eventId;
        private Type type;
        private String batchId;
        private Instant occurredAt;
        private Map<String, Integer> counts = Map.of();
        private int total;
        private boolean done;

        private Builder() {}

        public Builder eventId(String value) {
            eventId = value;
            return this;
        }

        public Builder type(Type value) {
            type = value;
            return this;
        }

        public Builder batchId(String value) {
            batchId = value;
            return this;
        }

        public Builder occurredAt(Instant value) {
            occurredAt = value;
            return this;
        }

        public Builder counts(Map<String, Integer> value) {
            counts = value;
            return this;
        }

        public Builder total(int value) {
            total = value;
            return this;
        }

        public Builder done(boolean value) {
            done = value;
            return this;
        }

        public CallbackEvent build() {
            return new CallbackEvent(eventId, type, batchId, occurredAt, counts, total, done);
        }
    }
}
