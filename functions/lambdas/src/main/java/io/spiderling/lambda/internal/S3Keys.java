package io.spiderling.lambda.internal;

import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.events.models.s3.S3EventNotification.S3EventNotificationRecord;
import java.util.List;
import java.util.Objects;
import org.jboss.logging.Logger;

/**
 * Object keys out of an S3 notification. Keys arrive URL-encoded ('+' for space), so they are decoded.
 *
 * <p>A record without an object key, or with a key that is not valid URL-encoding, is skipped with a log rather
 * than failing the invocation: S3 would deliver the whole event again, good records included, and no retry can mend
 * the key. The use cases judge the decoded keys themselves (prefix, shape), so a key outside their prefix is theirs
 * to ignore.
 */
public final class S3Keys {

    private static final Logger LOG = Logger.getLogger(S3Keys.class);

    private S3Keys() {}

    public static List<String> of(S3Event event) {
        if (event == null || event.getRecords() == null) {
            return List.of();
        }
        return event.getRecords().stream()
                .filter(Objects::nonNull)
                .filter(r -> r.getEventName() == null || r.getEventName().startsWith("ObjectCreated"))
                .map(S3Keys::decodedKey)
                .filter(Objects::nonNull)
                .toList();
    }

    private static String decodedKey(S3EventNotificationRecord record) {
        if (record.getS3() == null || record.getS3().getObject() == null
                || record.getS3().getObject().getKey() == null) {
            LOG.errorf("skipping an S3 record without an object key (event %s)", record.getEventName());
            return null;
        }
        try {
            return record.getS3().getObject().getUrlDecodedKey();
        } catch (IllegalArgumentException notUrlEncoded) {
            LOG.errorf("skipping S3 key %s: %s", record.getS3().getObject().getKey(), notUrlEncoded.getMessage());
            return null;
        }
    }
}
