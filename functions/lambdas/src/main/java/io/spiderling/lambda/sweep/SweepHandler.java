package io.spiderling.lambda.sweep;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import io.spiderling.core.frontier.Frontier;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

/**
 * An EventBridge schedule (every minute): release due frontier entries of every active site and re-send jobs
 * presumed lost. Fetches finishing release their own site's next entries; this catches the rest.
 */
@Named("sweep")
@Singleton
public class SweepHandler implements RequestHandler<ScheduledEvent, Integer> {

    private final Frontier frontier;

    @Inject
    public SweepHandler(Frontier frontier) {
        this.frontier = frontier;
    }

    /** Returns how many jobs were sent. */
    @Override
    public Integer handleRequest(ScheduledEvent event, Context context) {
        return frontier.sweep();
    }
}
