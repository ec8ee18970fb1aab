package io.spiderling.lambda.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.spiderling.core.auth.Clients;
import io.spiderling.lambda.internal.HttpJson;

/**
 * The local (and test) authenticator: {@code Authorization: Bearer <token>} checked against the clients file
 * ({@code spiderling.auth.clients-file}, one {@code <client-id> <token> <webhook-secret>} per line).
 */
public final class TokenFileAuth implements ApiAuth {

    private final Clients clients;

    public TokenFileAuth(Clients clients) {
        this.clients = clients;
    }

    @Override
    public Outcome authenticate(APIGatewayV2HTTPEvent event) {
        return switch (clients.authenticate(HttpJson.header(event, "authorization"))) {
            case Clients.Authentication.Authenticated a -> new Outcome.Client(a.clientId());
            case Clients.Authentication.Missing m -> new Outcome.Refused("missing credentials: send "
                    + "Authorization: Bearer <token>");
            case Clients.Authentication.Invalid i -> new Outcome.Refused("invalid credentials");
        };
    }
}
