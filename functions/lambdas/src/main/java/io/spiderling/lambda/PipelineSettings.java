package io.spiderling.lambda;

import io.spiderling.aws.AwsSettings;
import io.spiderling.core.frontier.Frontier;
import java.time.Duration;
import java.util.Set;

/**
 * Everything the pipeline needs to be assembled, as plain values. Quarkus fills it from configuration
 * ({@link io.spiderling.lambda.config.SpiderlingConfig}); the local runner and the tests fill it from the embedded
 * stack.
 */
public record PipelineSettings(AwsSettings aws, Resources resources, Fetch fetch, Frontier.Settings frontier,
        Uploads uploads, Serving serving) {

    /**
     * Names of the deployed resources.
     *
     * @param eventsQueueUrl where url.fetched and batch.completed events go; empty to publish none
     */
    public record Resources(String bucket, String urlsTable, String batchesTable, String sitesTable,
            String linksTable, String fetchQueueUrl, String planQueueUrl, String notifyQueueUrl,
            String eventsQueueUrl) {}

    /**
     * What the extract, notify and API stages need besides resources.
     *
     * @param indexLinks whether outlinks are indexed in the links table, for {@code GET /urls/inlinks}
     * @param canonicalScope which {@code rel=canonical} links may move a page's record
     * @param callbackHosts hosts callbacks may go to ({@code *}, {@code host}, {@code *.domain})
     * @param callbackHttp whether plain-http callbacks are allowed (local runs)
     * @param authMode {@code token-file} (local) or {@code gateway} (an API Gateway authorizer ran first)
     * @param clients the clients file's text: tokens (token-file mode) and webhook secrets (both modes)
     * @param clientClaim in gateway mode, the JWT claim that names the client
     */
    public record Serving(boolean indexLinks, io.spiderling.core.extract.CanonicalLink.Scope canonicalScope,
            java.util.List<String> callbackHosts, boolean callbackHttp, String authMode, String clients,
            String clientClaim) {

        public Serving {
            callbackHosts = java.util.List.copyOf(callbackHosts);
        }
    }

    /**
     * @param urlTtl how long an upload URL stays valid
     * @param chunkBytes an uploaded manifest is planned in chunks of this many bytes, one invocation each
     */
    public record Uploads(Duration urlTtl, long chunkBytes) {}

    /**
     * @param userAgent sent with every request; it names the crawler and a contact URL
     * @param firstByteTimeout the longest silence from the site (no byte) before giving up
     * @param maxBodyBytes bodies are cut at this size and flagged as truncated
     * @param allowLoopback local and test runs only: allow 127.0.0.0/8 past the SSRF guard (never 169.254.0.0/16)
     * @param robotsAgent the product token robots.txt groups are matched against
     * @param optOut site keys never contacted
     * @param rateOverrides the text of a rate overrides file ({@code site-key qps} per line), empty for none
     * @param robotsRetryBase the first wait before asking an unreachable robots.txt again (doubling, up to an hour)
     * @param throttlePause how long a 429/503 without Retry-After pauses the site (doubling while they repeat)
     * @param retryBase the first wait before trying a URL again after a 5xx or a network error (quadrupling)
     */
    public record Fetch(String userAgent, Duration connectTimeout, Duration firstByteTimeout, Duration totalTimeout,
            long maxBodyBytes, int maxRedirects, boolean allowLoopback, String robotsAgent, Set<String> optOut,
            String rateOverrides, Duration robotsRetryBase, Duration throttlePause, Duration retryBase) {

        public Fetch {
            optOut = Set.copyOf(optOut);
        }
    }
}
