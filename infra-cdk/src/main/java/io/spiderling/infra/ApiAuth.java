package io.spiderling.infra;

import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * Who may call the HTTP API: API Gateway checks every route with one authorizer, and the functions run with
 * {@code spiderling.auth.mode=gateway}, reading the client from the authorizer's context (ADR 10).
 */
public sealed interface ApiAuth {

    /**
     * Bearer tokens from an OIDC issuer (Cognito, Auth0, …), validated by API Gateway. The client is the claim the
     * deployment names ({@code spiderling.auth.client-claim}, {@code sub} by default).
     *
     * @param issuer the {@code iss} tokens must carry, an https URL
     * @param audiences accepted {@code aud} values; at least one
     */
    record Jwt(URI issuer, List<String> audiences) implements ApiAuth {
        public Jwt {
            Objects.requireNonNull(issuer, "issuer");
            if (!"https".equals(issuer.getScheme()) || issuer.getHost() == null) {
                throw new IllegalArgumentException("the JWT issuer must be an https URL, was " + issuer);
            }
            audiences = List.copyOf(audiences);
            if (audiences.isEmpty() || audiences.stream().anyMatch(String::isBlank)) {
                throw new IllegalArgumentException("the JWT authorizer needs at least one audience, none blank");
            }
        }
    }

    /** SigV4-signed requests; the caller's IAM role ARN is the client id. */
    record Iam() implements ApiAuth {}

    static ApiAuth jwt(URI issuer, List<String> audiences) {
        return new Jwt(issuer, audiences);
    }

    static ApiAuth iam() {
        return new Iam();
    }
}
