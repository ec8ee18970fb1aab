package io.spiderling.lambda.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * On AWS the HTTP API's authorizer has already checked the caller; this reads who it said they are from the request
 * context: a JWT authorizer's claim ({@code spiderling.auth.client-claim}, {@code sub} by default), a Lambda
 * authorizer's {@code clientId} context value, or the IAM caller (see {@link #iamClient}). A request that reached the
 * function without any of them (a misconfigured route) is refused rather than served anonymously.
 */
public final class GatewayAuth implements ApiAuth {

    /** An assumed role's session: {@code arn:<partition>:sts::<account>:assumed-role/<role name>/<session name>}. */
    private static final Pattern ASSUMED_ROLE =
            Pattern.compile("arn:(aws[a-z-]*):sts::([0-9]{12}):assumed-role/([^/]+)/.+");

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
                .or(() -> Optional.ofNullable(authorizer.getIam()).map(iam -> iam.getUserArn())
                        .map(GatewayAuth::iamClient))
                .filter(id -> !id.isBlank());
        return client.<Outcome>map(Outcome.Client::new).orElse(new Outcome.Refused("missing credentials"));
    }

    /**
     * The client an IAM caller is: the role, not the session. Every session of a role (every Lambda invocation, every
     * {@code aws sts assume-role}) has its own ARN, and batches are private to their client, so a client named by its
     * session would get 404 for the batches it submitted a session ago. An assumed role's session ARN becomes the
     * role's ARN ({@code arn:aws:iam::<account>:role/<name>}; the role's path is not in the session ARN, so it is
     * left out); an IAM user's ARN stays as it is.
     */
    static String iamClient(String arn) {
        Matcher session = ASSUMED_ROLE.matcher(arn);
        return session.matches()
                ? "arn:" + session.group(1) + ":iam::" + session.group(2) + ":role/" + session.group(3)
                : arn;
    }
}
