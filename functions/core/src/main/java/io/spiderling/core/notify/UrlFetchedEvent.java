package io.spiderling.core.notify;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.spiderling.core.fetch.FetchRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * SpiderDuck's "fetched" event for listeners: a URL was fetched (or confirmed unchanged) and stored. The id is the
 * URL hash and the fetch time, so a redelivered fetch message that ends in the same record publishes the same id.
 */
public final class UrlFetchedEvent {

    public static final String TYPE = "url.fetched";

    private static final JsonFactory JSON = JsonFactory.builder().build();

    private UrlFetchedEvent() {}

    public static String id(FetchRecord record) {
        return record.urlHash() + ":" + record.fetchedAt().toEpochMilli();
    }

    /**
     * {"eventId","type","url","requestUrl","urlHash","state","reason","httpStatus","contentKey","contentSha256","fetchedAt",
     * "batchIds"}: {@code url} is the key, {@code requestUrl} the spelling requested (when known).
     */
    public static byte[] toJson(FetchRecord record, List<String> batchIds) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            json.writeStartObject();
            json.writeStringField("eventId", id(record));
            json.writeStringField("type", TYPE);
            json.writeStringField("url", record.url());
            if (record.requestUrl().isPresent()) {
                json.writeStringField("requestUrl", record.requestUrl().get());
            }
            json.writeStringField("urlHash", record.urlHash());
            json.writeStringField("state", record.state().wireName());
            json.writeStringField("reason", record.reason().code());
            if (record.httpStatus().isPresent()) {
                json.writeNumberField("httpStatus", record.httpStatus().get());
            }
            if (record.contentKey().isPresent()) {
                json.writeStringField("contentKey", record.contentKey().get());
            }
            if (record.contentSha256().isPresent()) {
                json.writeStringField("contentSha256", record.contentSha256().get());
            }
            json.writeStringField("fetchedAt", record.fetchedAt().toString());
            json.writeArrayFieldStart("batchIds");
            for (String id : batchIds) {
                json.writeString(id);
            }
            json.writeEndArray();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return out.toByteArray();
    }
}
