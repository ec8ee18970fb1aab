package io.spiderling.local.nativecheck;

import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.testkit.RecordedRequest;
import java.util.List;
import java.util.Optional;

/**
 * What a handler must have done for its row to count, beyond answering as the other build did: two builds failing the
 * same way (a 404 because nothing was seeded, a URL that was never fetched) would otherwise pass as "same".
 */
public sealed interface Expectation {

    /**
     * What one invocation showed.
     *
     * @param answer the handler's answer, as JSON
     * @param requests what the local sites received during the invocation
     */
    record Observation(JsonNode answer, List<RecordedRequest> requests) {}

    /** What is wrong with {@code seen}; empty when it is as expected. */
    Optional<String> problem(Observation seen);

    /** An API Gateway answer with this status code. */
    record Status(int code) implements Expectation {
        @Override
        public Optional<String> problem(Observation seen) {
            JsonNode status = seen.answer().path("statusCode");
            return status.isInt() && status.asInt() == code ? Optional.empty()
                    : Optional.of("expected HTTP " + code + ", got " + (status.isMissingNode() ? "no status" : status));
        }
    }

    /** An SQS batch answer ({@code SQSBatchResponse}) that fails none of the messages. */
    record NoFailedMessages() implements Expectation {
        @Override
        public Optional<String> problem(Observation seen) {
            JsonNode failures = seen.answer().path("batchItemFailures");
            if (!failures.isArray()) {
                return Optional.of("expected an SQS batch answer, got " + seen.answer());
            }
            return failures.isEmpty() ? Optional.empty() : Optional.of(failures.size() + " message(s) failed");
        }
    }

    /** A number of at least {@code minimum} (how many URLs were parked, chunks sent, pages extracted …). */
    record AtLeast(int minimum) implements Expectation {
        @Override
        public Optional<String> problem(Observation seen) {
            return seen.answer().isIntegralNumber() && seen.answer().asLong() >= minimum ? Optional.empty()
                    : Optional.of("expected a number of at least " + minimum + ", got " + seen.answer());
        }
    }

    /** A local site received {@code method path} during the invocation. */
    record Requested(String host, String method, String path) implements Expectation {
        @Override
        public Optional<String> problem(Observation seen) {
            return seen.requests().stream().anyMatch(r -> r.host().equals(host) && r.method().equals(method)
                    && r.path().equals(path)) ? Optional.empty()
                    : Optional.of(host + " never received " + method + " " + path);
        }
    }
}
