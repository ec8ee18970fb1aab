package io.spiderling.lambda.config;

import io.spiderling.aws.AwsSettings;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.pipeline.CancelBatch;
import io.spiderling.core.pipeline.Canonicalize;
import io.spiderling.core.pipeline.ExtractContent;
import io.spiderling.core.pipeline.FetchPage;
import io.spiderling.core.pipeline.Ingest;
import io.spiderling.core.pipeline.PlanUpload;
import io.spiderling.core.pipeline.Queries;
import io.spiderling.lambda.Pipeline;
import io.spiderling.lambda.PipelineSettings;
import io.vertx.core.Vertx;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/** CDI producers: configuration in, the {@link Pipeline}'s use cases out. */
public class Beans {

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }

    @Produces
    @Singleton
    Pipeline pipeline(SpiderlingConfig config, Vertx vertx, Clock clock) {
        return Pipeline.create(settings(config), vertx, clock);
    }

    void close(@Disposes Pipeline pipeline) {
        pipeline.close();
    }

    @Produces
    Ingest ingest(Pipeline p) {
        return p.ingest();
    }

    @Produces
    Canonicalize canonicalize(Pipeline p) {
        return p.canonicalize();
    }

    @Produces
    PlanUpload planUpload(Pipeline p) {
        return p.planUpload();
    }

    @Produces
    FetchPage fetchPage(Pipeline p) {
        return p.fetchPage();
    }

    @Produces
    ExtractContent extract(Pipeline p) {
        return p.extract();
    }

    @Produces
    Queries queries(Pipeline p) {
        return p.queries();
    }

    @Produces
    CancelBatch cancel(Pipeline p) {
        return p.cancel();
    }

    @Produces
    Frontier frontier(Pipeline p) {
        return p.frontier();
    }

    @Produces
    io.spiderling.core.pipeline.UpdateFields updateFields(Pipeline p) {
        return p.updateFields();
    }

    @Produces
    io.spiderling.core.pipeline.NotifyBatch notifyBatch(Pipeline p) {
        return p.notifyBatch();
    }

    @Produces
    io.spiderling.lambda.api.ApiAuth apiAuth(Pipeline p) {
        return p.apiAuth();
    }

    private static String read(String key, String file) {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of(file));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(key + ": cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static io.spiderling.core.extract.CanonicalLink.Scope scope(String value) {
        return switch (value) {
            case "same-site" -> io.spiderling.core.extract.CanonicalLink.Scope.SAME_SITE;
            case "any-site" -> io.spiderling.core.extract.CanonicalLink.Scope.ANY_SITE;
            default -> throw new IllegalArgumentException(
                    "spiderling.extract.canonical-scope must be same-site or any-site, was " + value);
        };
    }

    /** Also used by the local runner, which reads the same configuration without Quarkus. */
    public static PipelineSettings settings(SpiderlingConfig c) {
        var aws = c.aws();
        var credentials = aws.accessKeyId().flatMap(id -> aws.secretAccessKey()
                .map(secret -> new AwsSettings.StaticCredentials(id, secret)));
        return new PipelineSettings(
                new AwsSettings(aws.region(), aws.endpoint().sqs(), aws.endpoint().dynamodb(), aws.endpoint().s3(),
                        credentials),
                new PipelineSettings.Resources(c.bucket(), c.tables().urls(), c.tables().batches(), c.tables().sites(),
                        c.tables().links(), c.queues().fetch(), c.queues().plan(), c.queues().notifyQueue(),
                        c.queues().events().orElse("")),
                new PipelineSettings.Fetch(c.fetch().userAgent(), c.fetch().connectTimeout(),
                        c.fetch().firstByteTimeout(), c.fetch().totalTimeout(), c.fetch().maxBodyBytes(),
                        c.fetch().maxRedirects(), c.fetch().allowLoopback(), c.fetch().robotsAgent(),
                        java.util.Set.copyOf(c.fetch().optOut().orElse(java.util.List.of())),
                        c.fetch().rateOverridesFile().map(f -> read("spiderling.fetch.rate-overrides-file", f))
                                .orElse(""), c.fetch().robotsRetryBase(),
                        c.fetch().throttlePause(), c.fetch().retryBase()),
                new Frontier.Settings(c.frontier().depthCap(), c.frontier().spacing(), c.frontier().lostAfter()),
                new PipelineSettings.Uploads(c.uploads().urlTtl(), c.uploads().chunkBytes()),
                new PipelineSettings.Serving(c.links().enabled(), scope(c.extract().canonicalScope()),
                        c.notifications().allowedHosts(), c.notifications().allowHttp(), c.auth().mode(),
                        c.auth().clientsFile().map(f -> read("spiderling.auth.clients-file", f)).orElse(""),
                        c.auth().clientClaim()));
    }
}
