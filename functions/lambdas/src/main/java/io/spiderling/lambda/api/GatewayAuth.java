package io.spiderling.lambda.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import java.util.Optional;

/**
 * On AWS the HTTP API's authorizer has already checked the caller; this reads who it said they are from the request
 * context: a JWT authorizer's claim ({@code spiderling.auth.client-claim}, {@code sub} by default), a Lambda
 * authorizer's {@code clientId} context value, or the IAM caller's ARN. A request that reached the function without
 * any of them (a misconfigured route) is refused rather than served anonymously.
 */
public final class GatewayAuth implements ApiAuth {

    private final String claim;

    public GatewayAuth(String claim) {
        this.claim = claim;
    }

    @Override
    public Outcome authenticate(APIGatewayV2HTTPEvent event) {
        var context = event.getRequestContext();
        var authorizer = context == null ? null : context.getAuthorizer();
        if (authorizer == null) {
            return new Outcome.Refused("missing credentials");
        }
        Optional<String> client = Optional.ofNullable(authorizer.getJwt())
                .map(jwt -> jwt.getClaims()).map(claims -> claims.get(claim))
                .or(() -> Optional.ofNullable(authorizer.getLambda()).map(l -> l.get("clientId"))
                        .map(Object::toString))
                .or(() -> Optional.ofNullable(authorizer.getIam()).map(iam -> iam.getUserArn()))
                .filter(id -> !id.isBlank());
        return client.<Outcome>map(Outcome.Client::new).orElse(new Outcome.Refused("missing credentials"));
    }
}
