package io.spiderling.catalog;

/** What an HTTP route does, and which function serves it. Handlers switch on it. */
public enum Operation {
    SUBMIT_BATCH(FunctionNames.INGEST),
    START_UPLOAD(FunctionNames.INGEST),
    BATCH_STATUS(FunctionNames.API),
    BATCH_URLS(FunctionNames.API),
    CANCEL_BATCH(FunctionNames.API),
    GET_URL(FunctionNames.API),
    BATCH_GET_URLS(FunctionNames.API),
    URL_CONTENT(FunctionNames.API),
    URL_MARKDOWN(FunctionNames.API),
    URL_INLINKS(FunctionNames.API),
    PATCH_URL_FIELDS(FunctionNames.API),
    /** The Web Bot Auth key directory (ADR 21): public, without authentication. */
    KEY_DIRECTORY(FunctionNames.API),
    // Operator controls (issue 25): admins only (ADR 10).
    FETCHING_STATUS(FunctionNames.API),
    SET_FETCHING(FunctionNames.API),
    LIST_OPT_OUTS(FunctionNames.API),
    ADD_OPT_OUT(FunctionNames.API),
    REMOVE_OPT_OUT(FunctionNames.API),
    QUOTA_STATUS(FunctionNames.API),
    SET_QUOTA(FunctionNames.API);

    private final String function;

    Operation(String function) {
        this.function = function;
    }

    /**
     * Whether anyone may call it, with no credentials: only the key directory, which sites must be able to read. API
     * Gateway serves it without the authorizer, and the handler before its own authentication.
     */
    public boolean isPublic() {
        return this == KEY_DIRECTORY;
    }

    /**
     * Whether only an admin may call it: the operator controls under {@code /admin}. Any other client gets 403; a
     * caller without credentials 401, as on every route.
     */
    public boolean isAdmin() {
        return switch (this) {
            case FETCHING_STATUS, SET_FETCHING, LIST_OPT_OUTS, ADD_OPT_OUT, REMOVE_OPT_OUT, QUOTA_STATUS, SET_QUOTA ->
                    true;
            default -> false;
        };
    }

    /** The catalog name of the function that serves it. */
    public String function() {
        return function;
    }
}
