package io.spiderling.local.nativecheck;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One sample event as the check sends it: to which function, how it is pointed at the harness's own resources (only
 * the fields that must change: a URL on the local site instead of example.com, the key of the body actually stored),
 * what it exercises, and what must come of it.
 */
public record Scenario(String function, String event, String exercises, Consumer<ObjectNode> rewrite,
        List<Expectation> expectations) {

    public Scenario {
        Objects.requireNonNull(rewrite, "rewrite");
        expectations = List.copyOf(expectations);
    }

    public static Builder of(String function, String event) {
        return new Builder(function, event);
    }

    /** The event as sent: the sample, rewritten. */
    public ObjectNode eventFrom(SampleEvents events) {
        ObjectNode event = events.load(this.event);
        rewrite.accept(event);
        return event;
    }

    /** Builds a scenario a property at a time, so the list of them reads as a table. */
    public static final class Builder {
        private final String function;
        private final String event;
        private String exercises = "";
        private Consumer<ObjectNode> rewrite = event -> {};
        private final List<Expectation> expectations = new ArrayList<>();

        private Builder(String function, String event) {
            this.function = Objects.requireNonNull(function);
            this.event = Objects.requireNonNull(event);
        }

        public Builder exercises(String text) {
            this.exercises = text;
            return this;
        }

        public Builder rewrite(Consumer<ObjectNode> change) {
            this.rewrite = this.rewrite.andThen(change);
            return this;
        }

        public Builder expect(Expectation... more) {
            expectations.addAll(List.of(more));
            return this;
        }

        public Scenario build() {
            return new Scenario(function, event, exercises, rewrite, expectations);
        }
    }
}
