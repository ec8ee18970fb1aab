package io.spiderling.core.port;

import java.util.Optional;

/** Each client's webhook signing secret. */
@FunctionalInterface
public interface WebhookSecrets {

    /** Empty for a client with no secret: its callbacks cannot be signed, so they are not sent. */
    Optional<String> secretOf(String client);
}
