package io.spiderling.lambda.fetch;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.spiderling.aws.FetchJobCodec;
import io.spiderling.core.pipeline.FetchPage;
import io.spiderling.lambda.internal.SqsBatches;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

/**
 * The SQS FIFO fetch queue: one fetch per message, in each site's order. Whatever the site answers is a handled
 * outcome; only a storage failure fails a message, and with it the rest of its site's group in this batch.
 */
@Named("fetch")
@Singleton
public class FetchHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {

    private final FetchPage fetchPage;

    @Inject
    public FetchHandler(FetchPage fetchPage) {
        this.fetchPage = fetchPage;
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        return SqsBatches.process(event, message -> fetchPage.process(FetchJobCodec.decode(message.getBody())));
    }
}
