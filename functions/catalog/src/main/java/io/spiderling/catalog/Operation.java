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
    KEY_DIRECTORY(FunctionNames.API);

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

    /** The catalog name of the function that serves it. */
    public String function() {
        return function;
    }
}
