package io.spiderling.lambda.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithName;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Typed configuration. Every key is documented in {@code application.properties}, the one reference for them; on
 * Lambda they are set as environment variables ({@code SPIDERLING_TABLES_URLS}, …) by the CDK stack.
 */
@ConfigMapping(prefix = "spiderling")
public interface SpiderlingConfig {

    Aws aws();

    String bucket();

    Tables tables();

    Queues queues();

    Fetch fetch();

    Frontier frontier();

    Uploads uploads();

    Links links();

    Extract extract();

    @WithName("notify")
    Notify notifications();

    Auth auth();

    interface Links {
        boolean enabled();
    }

    interface Extract {
        @WithName("canonical-scope")
        String canonicalScope();
    }

    interface Notify {
        @WithName("allowed-hosts")
        List<String> allowedHosts();

        @WithName("allow-http")
        boolean allowHttp();
    }

    interface Auth {
        String mode();

        @WithName("clients-file")
        Optional<String> clientsFile();

        @WithName("client-claim")
        String clientClaim();
    }

    interface Aws {
        String region();

        Endpoint endpoint();

        @WithName("access-key-id")
        Optional<String> accessKeyId();

        @WithName("secret-access-key")
        Optional<String> secretAccessKey();
    }

    interface Endpoint {
        Optional<URI> sqs();

        Optional<URI> dynamodb();

        Optional<URI> s3();
    }

    interface Tables {
        String urls();

        String batches();

        String sites();

        String links();
    }

    interface Queues {
        String fetch();

        String plan();

        @WithName("notify")
        String notifyQueue();

        Optional<String> events();
    }

    interface Uploads {
        @WithName("url-ttl")
        Duration urlTtl();

        @WithName("chunk-bytes")
        long chunkBytes();
    }

    interface Fetch {
        @WithName("user-agent")
        String userAgent();

        @WithName("connect-timeout")
        Duration connectTimeout();

        @WithName("first-byte-timeout")
        Duration firstByteTimeout();

        @WithName("total-timeout")
        Duration totalTimeout();

        @WithName("max-body-bytes")
        long maxBodyBytes();

        @WithName("max-redirects")
        int maxRedirects();

        @WithName("allow-loopback")
        boolean allowLoopback();

        @WithName("robots-agent")
        String robotsAgent();

        @WithName("opt-out")
        Optional<List<String>> optOut();

        @WithName("rate-overrides-file")
        Optional<String> rateOverridesFile();

        @WithName("robots-retry-base")
        Duration robotsRetryBase();

        @WithName("throttle-pause")
        Duration throttlePause();

        @WithName("retry-base")
        Duration retryBase();
    }

    interface Frontier {
        @WithName("depth-cap")
        int depthCap();

        Duration spacing();

        @WithName("lost-after")
        Duration lostAfter();
    }
}
