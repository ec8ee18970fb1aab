package io.spiderling.core.notify;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.spiderling.core.change.ContentChange;
import io.spiderling.core.url.NormalizedUrl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;

/**
 * A page changed (ADR 18): its content's change digest differs from the content fetched before it. Sent once the
 * URL's row records the change. The id is the URL hash and the time the changed content was fetched, so each change
 * has its own id, and every delivery of one change the same.
 */
public final class UrlChangedEvent {

    public static final String TYPE = "url.changed";

    private static final JsonFactory JSON = JsonFactory.builder().build();

    private UrlChangedEvent() {}

    public static String id(String urlHash, Instant fetchedAt) {
        return urlHash + ":" + fetchedAt.toEpochMilli() + ":changed";
    }

    /**
     * {"eventId","type","url","urlHash","contentSha256","fetchedAt","changeDigest","previousDigest",
     * "previousFetchedAt"}: {@code fetchedAt} is when the changed content was fetched, {@code previousFetchedAt}
     * when the content it replaced was.
     */
    public static byte[] toJson(NormalizedUrl url, String contentSha256, Instant fetchedAt, ContentChange change) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            json.writeStartObject();
            json.writeStringField("eventId", id(url.urlHash(), fetchedAt));
            json.writeStringField("type", TYPE);
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
