package io.spiderling.core.batch;

import java.util.Arrays;
import java.util.Optional;

/** How a batch came in; stored with its header and shown by the status API under its {@link #wireName}. */
public enum BatchSource {
    /** {@code POST /batches}, with its URLs. */
    HTTP("http"),
    /** {@code POST /batches/uploads}: its URLs come in an uploaded manifest. */
    UPLOAD("upload"),
    /** A message of the ingest queue. */
    SQS("sqs");

    private final String wireName;

    BatchSource(String wireName) {
        this.wireName = wireName;
    }

    /** The spelling stored in the batch header and returned by the API. */
    public String wireName() {
        return wireName;
    }

    public static Optional<BatchSource> fromWireName(String name) {
        return Arrays.stream(values()).filter(s -> s.wireName.equals(name)).findFirst();
    }
}
