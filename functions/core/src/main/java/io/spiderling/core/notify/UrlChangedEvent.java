package io.spiderling.core.notify;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.spiderling.core.change.ChangeState;
import io.spiderling.core.change.ContentChange;
import io.spiderling.core.url.NormalizedUrl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A page changed (ADR 18): its content's change digest differs from the content fetched before it. Sent once the
 * URL's row records the change, to the listeners, and to the callback of each batch that asked for it ({@code
 * "notify": ["changes"]}). The id is the URL hash and the time the changed content was fetched, so each change has
 * its own id, and every delivery of one change the same, listener's and webhook's alike.
 *
 * @param url the URL whose content changed
 * @param contentSha256 the SHA-256 of the changed content's bytes
 * @param fetchedAt when the changed content was fetched
 * @param change how it compares with the content before it; {@link ChangeState#CHANGED}
 */
public record UrlChangedEvent(NormalizedUrl url, String contentSha256, Instant fetchedAt, ContentChange change) {

    public static final String TYPE = "url.changed";

    private static final JsonFactory JSON = JsonFactory.builder().build();

    public UrlChangedEvent {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(contentSha256, "contentSha256");
        Objects.requireNonNull(fetchedAt, "fetchedAt");
        Objects.requireNonNull(change, "change");
        if (change.state() != ChangeState.CHANGED) {
            throw new IllegalArgumentException("a url.changed event needs a change, not " + change.state());
        }
    }

    public static String id(String urlHash, Instant fetchedAt) {
        return urlHash + ":" + fetchedAt.toEpochMilli() + ":changed";
    }

    /** {@code <urlHash>:<fetchedAt ms>:changed}. */
    public String id() {
        return id(url.urlHash(), fetchedAt);
    }

    /**
     * The listeners' body: {"eventId","type","url","urlHash","contentSha256","fetchedAt","changeDigest",
     * "previousDigest","previousFetchedAt"}: {@code fetchedAt} is when the changed content was fetched, {@code
     * previousFetchedAt} when the content it replaced was.
     */
    public byte[] toJson() {
        return toJson(Optional.empty());
    }

    /**
     * The webhook's body for batch {@code batchId}: the listeners' body with {@code "batchId"} after {@code "type"},
     * under the same {@code eventId}. Sign exactly these bytes.
     */
    public byte[] toJson(String batchId) {
        return toJson(Optional.of(batchId));
    }

    private byte[] toJson(Optional<String> batchId) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            json.writeStartObject();
            json.writeStringField("eventId", id());
            json.writeStringField("type", TYPE);
            if (batchId.isPresent()) {
                json.writeStringField("batchId", batchId.get());
            }
            json.writeStringField("url", url.value());
            json.writeStringField("urlHash", url.urlHash());
            json.writeStringField("contentSha256", contentSha256);
            json.writeStringField("fetchedAt", fetchedAt.toString());
            json.writeStringField("changeDigest", change.digest());
            if (change.previousDigest().isPresent()) {
                json.writeStringField("previousDigest", change.previousDigest().get());
            }
            if (change.previousFetchedAt().isPresent()) {
                json.writeStringField("previousFetchedAt", change.previousFetchedAt().get().toString());
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return out.toByteArray();
    }
}
