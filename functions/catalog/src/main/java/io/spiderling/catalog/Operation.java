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
    PATCH_URL_FIELDS(FunctionNames.API);

    private final String function;

    Operation(String function) {
        this.function = function;
    }

    /** The catalog name of the function that serves it. */
    public String function() {
        return function;
    }
}
