package io.spiderling.core.port;

/**
 * SpiderDuck's listeners: an event per fetched URL and per completed batch, for whoever subscribes (an SQS queue on
 * AWS). Delivery is at least once; events carry ids for receivers that must drop duplicates.
 */
public interface EventSink {

    EventSink NONE = (type, id, json) -> {};

    /**
     * @param type {@code url.fetched} or {@code batch.completed}
     * @param id stable for the same event, for deduplication
     * @param json the event, UTF-8 JSON
     */
    void publish(String type, String id, byte[] json);
}
