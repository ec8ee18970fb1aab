package io.spiderling.lambda;

import io.spiderling.aws.AwsSettings;
import io.spiderling.core.frontier.Frontier;
import java.time.Duration;

/**
 * Everything the pipeline needs to be assembled, as plain values. Quarkus fills it from configuration
 * ({@link io.spiderling.lambda.config.SpiderlingConfig}); the local runner and the tests fill it from the embedded
 * stack.
 */
public record PipelineSettings(AwsSettings aws, Resources resources, Fetch fetch, Frontier.Settings frontier,
        Uploads uploads) {

    /** Names of the deployed resources. */
    public record Resources(String bucket, String urlsTable, String batchesTable, String sitesTable,
            String fetchQueueUrl, String planQueueUrl) {}

    /**
     * @param urlTtl how long an upload URL stays valid
     * @param chunkBytes an uploaded manifest is planned in chunks of this many bytes, one invocation each
     */
    public record Uploads(Duration urlTtl, long chunkBytes) {}

    /**
     * @param userAgent sent with every request; it names the crawler and a contact URL
     * @param maxBodyBytes bodies are cut at this size and flagged as truncated
     */
    public record Fetch(String userAgent, Duration connectTimeout, Duration totalTimeout, long maxBodyBytes,
            int maxRedirects) {}
}
