package io.spiderling.lambda.extract;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.S3Event;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.core.pipeline.extract.ExtractContent;
import io.spiderling.lambda.Pipeline;
import io.spiderling.lambda.internal.LogContext;
import io.spiderling.lambda.internal.S3Keys;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

/**
 * S3 ObjectCreated on {@code content/}: extract metadata into the URL's row. Early, duplicate and out-of-order events
 * are expected; the store's conditional write keeps the newest extraction.
 */
@Named("extract")
@Singleton
public class ExtractHandler implements RequestHandler<S3Event, Integer> {

    private final ExtractContent extract;

    @Inject
    public ExtractHandler(Pipeline pipeline) {
        this.extract = pipeline.extract();
    }

    /** Returns how many extractions were written. */
    @Override
    public Integer handleRequest(S3Event event, Context context) {
        try (LogContext.Scope log = LogContext.invocation(FunctionNames.EXTRACT, context)) {
            return (int) S3Keys.of(event).stream()
                    .map(extract::onContent)
                    .filter(outcome -> outcome.map(ExtractContent.Outcome::written).orElse(false))
                    .count();
        }
    }
}
