package io.spiderling.infra;

import io.spiderling.catalog.ConfigKey;
import io.spiderling.catalog.ConfigKeys;
import io.spiderling.catalog.FunctionSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awscdk.Token;

/**
 * The values this deployment gives configuration keys: resource names and URLs, and the operator's settings. A
 * function's environment is the subset its catalog entry reads ({@link FunctionSpec#configKeys()}), so a function
 * never sees a key it does not read, and a new key reaches exactly the functions that declare it.
 */
public final class ConfigValues {

    /**
     * Keys only an emulator needs. On Lambda the SDK finds the region itself and uses the function's role, and an
     * endpoint override would send production traffic elsewhere, so the stack refuses to set any of them.
     */
    static final Set<ConfigKey<?>> NEVER_DEPLOYED = Set.of(ConfigKeys.AWS_ENDPOINT_SQS,
            ConfigKeys.AWS_ENDPOINT_DYNAMODB, ConfigKeys.AWS_ENDPOINT_S3, ConfigKeys.AWS_ENDPOINT_SECRETSMANAGER,
            ConfigKeys.AWS_ACCESS_KEY_ID, ConfigKeys.AWS_SECRET_ACCESS_KEY, ConfigKeys.AWS_REGION);

    /** The variable Quarkus reads to pick the {@code @Named} handler out of the one artifact (ADR 1). */
    static final String HANDLER_VARIABLE = "QUARKUS_LAMBDA_HANDLER";

    private final Map<ConfigKey<?>, String> values = new LinkedHashMap<>();

    /**
     * Sets {@code key}. A literal value is read with the key's own parser first, so a value the functions would
     * refuse at start-up fails the synth instead; a token (a name or URL CloudFormation fills in) is taken as is.
     *
     * @throws IllegalArgumentException for a key the stack must never set, or a value the key cannot take
     */
    public ConfigValues set(ConfigKey<?> key, String value) {
        if (NEVER_DEPLOYED.contains(key)) {
            throw new IllegalArgumentException(key + " is for emulators only; Lambda provides the region and"
                    + " credentials");
        }
        if (!Token.isUnresolved(value)) {
            key.read(Optional.of(value));
        }
        values.put(key, value);
        return this;
    }

    public Optional<String> get(ConfigKey<?> key) {
        return Optional.ofNullable(values.get(key));
    }

    /** The function's environment: its handler, then each key it reads that the deployment sets. */
    public Map<String, String> environmentOf(FunctionSpec function) {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put(HANDLER_VARIABLE, function.name());
        environment.putAll(function.environment(values));
        return environment;
    }
}
