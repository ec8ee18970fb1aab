package io.spiderling.aws;

import java.util.function.Supplier;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The text of one Secrets Manager secret (its current version), read afresh on each {@link #get()}; callers cache it
 * (see {@code Refreshing}). Binary secrets are refused: the clients file is text.
 */
public final class SecretsManagerText implements Supplier<String> {

    private final SecretsManagerClient client;
    private final String secretId;

    /** @param secretId the secret's ARN or name */
    public SecretsManagerText(SecretsManagerClient client, String secretId) {
        this.client = client;
        this.secretId = secretId;
    }

    @Override
    public String get() {
        String text = client.getSecretValue(b -> b.secretId(secretId)).secretString();
        if (text == null) {
            throw new IllegalStateException("secret " + secretId + " holds no text (a binary secret?)");
        }
        return text;
    }
}
