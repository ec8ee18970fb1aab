package io.spiderling.lambda.canonicalize;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.S3Event;
import io.spiderling.core.pipeline.Canonicalize;
import io.spiderling.lambda.internal.S3Keys;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

/**
 * S3 ObjectCreated on {@code manifests/}: plan the batch and queue its fetch jobs. An infrastructure failure throws,
 * so Lambda retries the event; planning the same manifest again is safe.
 */
@Named("canonicalize")
@Singleton
public class CanonicalizeHandler implements RequestHandler<S3Event, Integer> {

    private final Canonicalize canonicalize;

    @Inject
    public CanonicalizeHandler(Canonicalize canonicalize) {
        this.canonicalize = canonicalize;
    }

    /** Returns how many URLs were handed to the frontier for fetching. */
    @Override
    public Integer handleRequest(S3Event event, Context context) {
        return S3Keys.of(event).stream()
                .mapToInt(key -> canonicalize.onManifest(key).map(Canonicalize.Outcome::parked).orElse(0))
                .sum();
    }
}
