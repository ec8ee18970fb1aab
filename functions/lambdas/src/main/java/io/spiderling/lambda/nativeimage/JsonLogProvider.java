package io.spiderling.lambda.nativeimage;

import io.quarkus.runtime.annotations.RegisterForReflection;
import org.eclipse.parsson.JsonProviderImpl;

/**
 * The JSON log formatter (JBoss LogManager's {@code JsonFormatter}, installed by {@code JsonLogs}) asks Jakarta JSON
 * for its provider, which looks Parsson's {@code JsonProviderImpl} up by name when the service loader finds none. A
 * native image keeps a class for reflection only when told: without this, every function failed to start natively
 * with "Provider org.eclipse.parsson.JsonProviderImpl not found" (seen with ./spiderling native-check, 2026-11-24).
 */
@RegisterForReflection(targets = JsonProviderImpl.class)
final class JsonLogProvider {

    private JsonLogProvider() {}
}
