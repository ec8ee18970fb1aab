package io.spiderling.catalog;

import java.util.Arrays;
import java.util.List;

/** Secrets a deployment keeps in AWS Secrets Manager; locally their text comes from a file instead. */
public enum Secret {

    /**
     * The clients file's text: {@code <client-id> <token> <webhook-secret>} per line. On AWS the API's authorizer
     * checks callers, so only the webhook secrets are used; functions re-read it after
     * {@link ConfigKeys#AUTH_CLIENTS_CACHE}, so a rotation needs no redeploy.
     */
    CLIENTS("clients", ConfigKeys.AUTH_CLIENTS_SECRET, "# one <client-id> <token> <webhook-secret> per line\n"),

    /**
     * The Web Bot Auth signing keys (ADR 21): a JWKS of private Ed25519 keys with their {@code nbf} and {@code exp}.
     * Read only while {@link ConfigKeys#SIGNING_ENABLED} is on, and again after {@link ConfigKeys#SIGNING_KEYS_CACHE},
     * so a key added for rotation is picked up without a redeploy. The empty set it starts with signs nothing.
     */
    SIGNING_KEYS("signing-keys", ConfigKeys.SIGNING_KEYS_SECRET, "{\"keys\":[]}\n");

    private final String suffix;
    private final ConfigKey<?> configKey;
    private final String initialText;

    Secret(String suffix, ConfigKey<?> configKey, String initialText) {
        this.suffix = suffix;
        this.configKey = configKey;
        this.initialText = initialText;
    }

    /**
     * What the secret holds until an operator puts the real text: for the clients, a comment, which the functions'
     * parser reads as no clients (so no callback is signed), never a made-up credential.
     */
    public String initialText() {
        return initialText;
    }

    public String nameIn(String prefix) {
        return prefix + "/" + suffix;
    }

    public String suffix() {
        return suffix;
    }

    /** The key whose value is the secret's ARN. */
    public ConfigKey<?> configKey() {
        return configKey;
    }

    public static List<Secret> all() {
        return Arrays.asList(values());
    }
}
