package io.spiderling.lambda.config;

import io.quarkus.runtime.StartupEvent;
import io.spiderling.lambda.Pipeline;
import io.spiderling.lambda.internal.JsonLogs;
import io.vertx.core.Vertx;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import org.eclipse.microprofile.config.Config;

/**
 * CDI producers: configuration in, the {@link Pipeline} out. Handlers take the pipeline and ask it for what they
 * need, which it builds then; nothing else is built, and no other key is read.
 */
public class Beans {

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }

    @Produces
    @Singleton
    FunctionConfig functionConfig(Config config) {
        return FunctionConfig.of(config);
    }

    @Produces
    @Singleton
    Pipeline pipeline(FunctionConfig config, Vertx vertx, Clock clock) {
        return Pipeline.builder().config(config).vertx(vertx).clock(clock).build();
    }

    /**
     * On Lambda, before the first invocation: JSON log lines when the configuration asks for them. Building the
     * pipeline here only reads configuration.
     */
    void logFormat(@Observes StartupEvent event, Pipeline pipeline) {
        if (pipeline.jsonLogs()) {
            JsonLogs.install();
        }
    }

    void close(@Disposes Pipeline pipeline) {
        pipeline.close();
    }
}
