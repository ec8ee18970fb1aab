package io.spiderling.catalog;

/** How the API learns who calls it ({@link ConfigKeys#AUTH_MODE}); ADR 10. */
public enum AuthMode implements ConfigChoice {
    /** {@code Authorization: Bearer <token>} checked against the clients file: local runs. */
    TOKEN_FILE("token-file"),
    /** An API Gateway authorizer (JWT, Lambda or IAM) already checked the caller: AWS. */
    GATEWAY("gateway");

    private final String wireName;

    AuthMode(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }
}
