package io.spiderling.local.nativecheck;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The sample events under {@code events/}, the one copy the catalog names ({@code FunctionSpec#sampleEvents()}). */
public final class SampleEvents {

    static final ObjectMapper JSON = new ObjectMapper();

    private final Path directory;

    public SampleEvents(Path directory) {
        if (!Files.isDirectory(directory)) {
            throw new IllegalArgumentException(directory + " is not a directory of sample events");
        }
        this.directory = directory;
    }

    public boolean exists(String name) {
        return Files.isRegularFile(directory.resolve(name));
    }

    /** A fresh, mutable copy of the event. */
    public ObjectNode load(String name) {
        try {
            JsonNode event = JSON.readTree(Files.readString(directory.resolve(name)));
            if (!(event instanceof ObjectNode object)) {
                throw new IllegalArgumentException(name + " is not a JSON object");
            }
            return object;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read sample event " + name, e);
        }
    }

    /** The object key of the first record of an S3 notification. */
    public String objectKey(String name) {
        return load(name).at("/Records/0/s3/object/key").asText();
    }

    public Path file(String name) {
        return directory.resolve(name);
    }
}
