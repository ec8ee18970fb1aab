package io.spiderling.core.pipeline;

import io.spiderling.core.change.ChangeState;
import io.spiderling.core.change.ContentChange;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.notify.UrlChangedEvent;
import io.spiderling.core.port.NotifyQueue;
import io.spiderling.core.port.UrlStore;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Tells the batches that asked for changes ({@code "notify": ["changes"]}) when a fetch that ended their items found
 * the page changed: one notify message per batch, which the notify stage posts to its callback (ADR 18).
 *
 * <p>Two stages hold half of it each. The fetch stage knows which batches a fetch served, once their items have
 * ended; the extraction, which runs after the body is stored, on its own event and so before or after that, knows
 * whether the content changed. They meet on the URL's row ({@link UrlStore#requestChangeNotices}): the fetch stage
 * records its batches and, in the same write, reads the change if the extraction recorded it already, and then tells
 * them itself ({@link #requested}); the extraction records its change and then reads the batches recorded so far
 * ({@link #changed}). One of the two writes comes second and sees both, so every batch is told at least once.
 *
 * <p>Each side sends before it returns, and a failed send fails the call, which its stage retries: the fetch
 * message's retry finds its record and asks again; the extraction's retry finds its change and reads the batches
 * again. Both may tell a batch, and retries tell it again, under the one event id, which its receiver drops.
 */
public final class ChangeNotices {

    private final UrlStore urls;
    private final NotifyQueue queue;

    public ChangeNotices(UrlStore urls, NotifyQueue queue) {
        this.urls = Objects.requireNonNull(urls, "urls");
        this.queue = Objects.requireNonNull(queue, "queue");
    }

    /**
     * The fetch stage's half: {@code batchIds}, whose items {@code record} ended and which asked for changes, want to
     * hear if its content changed. Only a fetch that stored content can have changed it; the first {@link
     * UrlStore#MAX_CHANGE_REQUESTS} batches of a fetch are kept.
     */
    public void requested(FetchRecord record, Collection<String> batchIds) {
        if (batchIds.isEmpty() || record.contentSha256().isEmpty()) {
            return;
        }
        Set<String> asking = new LinkedHashSet<>(batchIds.stream().distinct()
                .limit(UrlStore.MAX_CHANGE_REQUESTS).toList());
        String sha = record.contentSha256().get();
        Optional<ContentChange> extracted = urls.requestChangeNotices(record.urlHash(), record.fetchedAt(), sha,
                asking);
        extracted.filter(c -> c.state() == ChangeState.CHANGED).ifPresent(c -> send(new UrlChangedEvent(
                NormalizedUrl.parse(record.url()), sha, record.fetchedAt(), c), asking));
    }

    /** The extraction's half, once the URL's row records {@code event}'s change. */
    public void changed(UrlChangedEvent event) {
        send(event, urls.changeNoticeRequests(event.url().urlHash(), event.fetchedAt()));
    }

    private void send(UrlChangedEvent event, Collection<String> batchIds) {
        batchIds.forEach(batchId -> queue.send(NotifyQueue.Message.changed(batchId, event), Duration.ZERO));
    }
}
