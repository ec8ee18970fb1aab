package io.spiderling.lambda.internal;

import com.amazonaws.services.lambda.runtime.events.S3Event;
import java.util.List;

/** Object keys out of an S3 notification. Keys arrive URL-encoded ('+' for space), so they are decoded. */
public final class S3Keys {

    private S3Keys() {}

    public static List<String> of(S3Event event) {
        if (event == null || event.getRecords() == null) {
            return List.of();
        }
        return event.getRecords().stream()
                .filter(r -> r.getEventName() == null || r.getEventName().startsWith("ObjectCreated"))
                .map(r -> r.getS3().getObject().getUrlDecodedKey())
                .toList();
    }
}
