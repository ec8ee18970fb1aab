package io.spiderling.testkit;

import io.spiderling.catalog.Queue;
import io.spiderling.catalog.Secret;
import io.spiderling.catalog.Table;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The names and URLs of one provisioned set of Spiderling resources, all derived from {@code prefix}: a bucket
 * ({@code <prefix>-content}), and each of the catalog's tables, queues and secrets (see {@link Table#nameIn},
 * {@link Queue#nameIn}, {@link Secret#nameIn}).
 *
 * @param queueUrls each queue's URL
 * @param secrets each secret's ARN
 */
public record StackResources(String prefix, String bucket, Map<Table, String> tables, Map<Queue, String> queueUrls,
        Map<Secret, String> secrets) {

    public StackResources {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(bucket, "bucket");
        tables = Collections.unmodifiableMap(new EnumMap<>(tables));
        queueUrls = Collections.unmodifiableMap(new EnumMap<>(queueUrls));
        secrets = Collections.unmodifiableMap(secrets.isEmpty() ? new EnumMap<>(Secret.class) : new EnumMap<>(secrets));
        for (Table t : Table.values()) {
            Objects.requireNonNull(tables.get(t), () -> "no " + t + " table");
        }
        for (Queue q : Queue.values()) {
            Objects.requireNonNull(queueUrls.get(q), () -> "no " + q + " queue");
        }
    }

    public String table(Table table) {
        return tables.get(table);
    }

    public String queueUrl(Queue queue) {
        return queueUrls.get(queue);
    }

    /** The ARN of the secret, or null where none was provisioned. */
    public String secret(Secret secret) {
        return secrets.get(secret);
    }

    public String urlsTable() {
        return table(Table.URLS);
    }

    public String batchesTable() {
        return table(Table.BATCHES);
    }

    public String sitesTable() {
        return table(Table.SITES);
    }

    public String linksTable() {
        return table(Table.LINKS);
    }

    public String ingestQueueUrl() {
        return queueUrl(Queue.INGEST);
    }

    public String ingestDlqUrl() {
        return queueUrl(Queue.INGEST_DLQ);
    }

    public String fetchQueueUrl() {
        return queueUrl(Queue.FETCH);
    }

    public String fetchDlqUrl() {
        return queueUrl(Queue.FETCH_DLQ);
    }

    public String planQueueUrl() {
        return queueUrl(Queue.PLAN);
    }

    public String planDlqUrl() {
        return queueUrl(Queue.PLAN_DLQ);
    }

    public String notifyQueueUrl() {
        return queueUrl(Queue.NOTIFY);
    }

    public String notifyDlqUrl() {
        return queueUrl(Queue.NOTIFY_DLQ);
    }

    public String eventsQueueUrl() {
        return queueUrl(Queue.EVENTS);
    }
}
