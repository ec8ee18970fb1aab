package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.catalog.BucketPrefix;
import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.EventSource;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.catalog.Routes;
import io.spiderling.core.content.BucketKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The catalog, the handlers and the sample events agree: every {@code @Named} handler has an entry and every entry a
 * handler; every entry's sample events exist and are events of its source; every sample event belongs to a function.
 */
class CatalogHandlersTest {

    /** The deployment the sample events were captured from names its resources after this prefix. */
    private static final String SAMPLE_PREFIX = "spiderling";

    @Test
    void handlers_whenScanned_areExactlyTheCatalogsFunctions() {
        Set<String> catalog = Catalog.FUNCTIONS.stream().map(FunctionSpec::name)
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(catalog, new TreeSet<>(Handlers.named().keySet()));
        for (Class<? extends RequestHandler<?, ?>> type : Handlers.named().values()) {
            assertTrue(Stream.of(type.getConstructors()).anyMatch(c -> c.getParameterCount() == 1
                    && c.getParameterTypes()[0] == Pipeline.class), type + " takes the Pipeline");
        }
    }

    @Test
    void sampleEvents_whenListed_existAndEveryEventFileBelongsToOneFunction() throws IOException {
        List<String> listed = new ArrayList<>();
        Catalog.FUNCTIONS.forEach(f -> listed.addAll(f.sampleEvents()));
        assertEquals(listed.size(), new TreeSet<>(listed).size(), "an event listed twice: " + listed);
        try (Stream<Path> files = Files.list(Events.dir())) {
            Set<String> events = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json"))
                    .collect(Collectors.toCollection(TreeSet::new));
            assertEquals(events, new TreeSet<>(listed));
        }
    }

    @Test
    void sampleEvents_whenRead_areEventsOfTheirFunctionsSource() {
        for (FunctionSpec f : Catalog.FUNCTIONS) {
            for (String file : f.sampleEvents()) {
                JsonNode event = Events.load(file);
                String where = f.name() + " / " + file;
                switch (f.source()) {
                    case EventSource.QueueSource q -> {
                        assertTrue(event.path("Records").size() > 0, where);
                        for (JsonNode record : event.path("Records")) {
                            assertEquals("aws:sqs", record.path("eventSource").asText(), where);
                            String arn = record.path("eventSourceARN").asText();
                            assertEquals(q.queue().nameIn(SAMPLE_PREFIX), arn.substring(arn.lastIndexOf(':') + 1),
                                    where);
                            assertEquals(q.queue().fifo(), record.path("attributes").has("MessageGroupId"), where);
                        }
                    }
                    case EventSource.ObjectCreated s3 -> {
                        for (JsonNode record : event.path("Records")) {
                            assertTrue(record.path("eventName").asText().startsWith("ObjectCreated:"), where);
                            String key = record.path("s3").path("object").path("key").asText();
                            BucketPrefix prefix = BucketPrefix.of(key).orElseThrow(() -> new AssertionError(where));
                            assertTrue(s3.prefixes().contains(prefix), where + ": " + key);
                        }
                    }
                    case EventSource.Http http -> {
                        String method = event.path("requestContext").path("http").path("method").asText();
                        var match = Routes.match(method, event.path("rawPath").asText())
                                .orElseThrow(() -> new AssertionError(where + " matches no route"));
                        assertEquals(f.name(), match.route().function(), where);
                        assertEquals(match.route().routeKey(), event.path("routeKey").asText(), where);
                    }
                    case EventSource.Schedule schedule -> {
                        assertEquals("aws.events", event.path("source").asText(), where);
                        assertEquals("Scheduled Event", event.path("detail-type").asText(), where);
                    }
                }
            }
        }
    }

    @Test
    void bucketPrefixes_whenDeclared_areTheOnesTheCodeWrites() {
        assertEquals(BucketKeys.MANIFESTS, BucketPrefix.MANIFESTS.prefix());
        assertEquals(BucketKeys.UPLOADS, BucketPrefix.UPLOADS.prefix());
        assertEquals(BucketKeys.PLANNED, BucketPrefix.PLANNED.prefix());
        assertEquals(BucketKeys.CONTENT, BucketPrefix.CONTENT.prefix());
        assertEquals(BucketKeys.CAPTURE, BucketPrefix.CAPTURE.prefix());
    }
}
