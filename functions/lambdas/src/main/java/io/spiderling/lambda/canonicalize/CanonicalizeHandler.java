package io.spiderling.lambda.canonicalize;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.S3Event;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.pipeline.ingest.Canonicalize;
import io.spiderling.core.pipeline.ingest.PlanUpload;
import io.spiderling.lambda.Pipeline;
import io.spiderling.lambda.internal.LogContext;
import io.spiderling.lambda.internal.S3Keys;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

/**
 * S3 ObjectCreated on {@code manifests/}: plan the batch and queue its fetch jobs. On {@code uploads/}: freeze the
 * client's uploaded manifest and send one planning message per chunk to the plan queue. An infrastructure failure
 * throws, so Lambda retries the event; both are safe to run again.
 */
@Named("canonicalize")
@Singleton
public class CanonicalizeHandler implements RequestHandler<S3Event, Integer> {

    private final Canonicalize canonicalize;
    private final PlanUpload planUpload;

    @Inject
    public CanonicalizeHandler(Pipeline pipeline) {
        this.canonicalize = pipeline.canonicalize();
        this.planUpload = pipeline.planUpload();
    }

    /** Returns how many URLs were handed to the frontier, plus how many upload chunks were sent for planning. */
    @Override
    public Integer handleRequest(S3Event event, Context context) {
        try (LogContext.Scope log = LogContext.invocation(FunctionNames.CANONICALIZE, context)) {
            return S3Keys.of(event).stream()
                    .mapToInt(key -> key.startsWith(BucketKeys.UPLOADS)
                            ? planUpload.onUpload(key).map(PlanUpload.Arrival::chunks).orElse(0)
                            : canonicalize.onManifest(key).map(Canonicalize.Outcome::parked).orElse(0))
                    .sum();
        }
    }
}
