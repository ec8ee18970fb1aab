package io.spiderling.testkit;

/**
 * The names and URLs of one provisioned set of Spiderling resources, all derived from {@code prefix}.
 *
 * @param prefix the prefix every name starts with
 * @param bucket the S3 bucket for fetched content, {@code <prefix>-content}
 * @param urlsTable the DynamoDB table of URL state, {@code <prefix>-urls}, keyed by {@code urlHash}
 * @param batchesTable the DynamoDB table of batches, {@code <prefix>-batches}, keyed by {@code pk} and {@code sk}
 * @param sitesTable the DynamoDB table of the per-site frontier, {@code <prefix>-sites}, keyed by {@code pk} and
 *     {@code sk}, with the local secondary index {@code byOrder} on ({@code pk}, {@code ord})
 * @param linksTable the DynamoDB table of links indexed by target, {@code <prefix>-links}, keyed by {@code target}
 *     ({@code <target hash>#<shard>}) and {@code source} (the linking page's hash)
 * @param ingestQueueUrl the standard queue {@code <prefix>-ingest}
 * @param ingestDlqUrl its dead-letter queue {@code <prefix>-ingest-dlq}
 * @param fetchQueueUrl the FIFO queue {@code <prefix>-fetch.fifo}
 * @param fetchDlqUrl its FIFO dead-letter queue {@code <prefix>-fetch-dlq.fifo}
 * @param planQueueUrl the standard queue {@code <prefix>-plan} of upload chunks to plan
 * @param planDlqUrl its dead-letter queue {@code <prefix>-plan-dlq}
 * @param notifyQueueUrl the standard queue {@code <prefix>-notify} of callback deliveries
 * @param notifyDlqUrl its dead-letter queue {@code <prefix>-notify-dlq}
 * @param eventsQueueUrl the standard queue {@code <prefix>-events} where listeners read url.fetched and
 *     batch.completed events
 */
public record StackResources(
        String prefix,
        String bucket,
        String urlsTable,
        String batchesTable,
        String sitesTable,
        String linksTable,
        String ingestQueueUrl,
        String ingestDlqUrl,
        String fetchQueueUrl,
        String fetchDlqUrl,
        String planQueueUrl,
        String planDlqUrl,
        String notifyQueueUrl,
        String notifyDlqUrl,
        String eventsQueueUrl) {}
