package io.spiderling.lambda.config;

import io.spiderling.lambda.Pipeline;
import io.vertx.core.Vertx;
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

    void close(@Disposes Pipeline pipeline) {
        pipeline.close();
    }
}
