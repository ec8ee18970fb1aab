package io.spiderling.lambda;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** One profile per handler: the one artifact runs whichever handler {@code quarkus.lambda.handler} names. */
final class HandlerProfiles {

    private HandlerProfiles() {}

    abstract static class Selecting implements QuarkusTestProfile {
        private final String handler;

        Selecting(String handler) {
            this.handler = handler;
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.lambda.handler", handler);
        }
    }

    public static final class Ingest extends Selecting {
        public Ingest() {
            super("ingest");
        }
    }

    public static final class IngestQueue extends Selecting {
        public IngestQueue() {
            super("ingest-queue");
        }
    }

    public static final class Canonicalize extends Selecting {
        public Canonicalize() {
            super("canonicalize");
        }
    }

    public static final class Fetch extends Selecting {
        public Fetch() {
            super("fetch");
        }
    }

    public static final class Extract extends Selecting {
        public Extract() {
            super("extract");
        }
    }

    public static final class Api extends Selecting {
        public Api() {
            super("api");
        }
    }

    public static final class Notify extends Selecting {
        public Notify() {
            super("notify");
        }
    }

    public static final class Sweep extends Selecting {
        public Sweep() {
            super("sweep");
        }
    }
}
