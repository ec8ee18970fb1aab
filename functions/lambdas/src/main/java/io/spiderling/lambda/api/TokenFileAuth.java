package io.spiderling.lambda.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.spiderling.core.auth.Clients;
import io.spiderling.lambda.internal.HttpJson;
import java.util.function.Supplier;

/**
 * The local (and test) authenticator: {@code Authorization: Bearer <token>} checked against the clients file
 * ({@code spiderling.auth.clients-file}, one {@code <client-id> <token> <webhook-secret>} per line), as it stands now:
 * the supplier re-reads it after its cache time.
 */
public final class TokenFileAuth implements ApiAuth {

    private final Supplier<Clients> clients;

    public TokenFileAuth(Supplier<Clients> clients) {
        this.clients = clients;
    }

    @Override
    public Outcome authenticate(APIGatewayV2HTTPEvent event) {
        return switch (clients.get().authenticate(HttpJson.header(event, "authorization"))) {
            case Clients.Authentication.Authenticated a -> new Outcome.Client(a.clientId());
            case Clients.Authentication.Missing m -> new Outcome.Refused("missing credentials: send "
                    + "Authorization: Bearer <token>");
            case Clients.Authentication.Invalid i -> new Outcome.Refused("invalid credentials");
        };
    }
}
