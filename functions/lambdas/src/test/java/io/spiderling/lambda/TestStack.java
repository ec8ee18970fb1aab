package io.spiderling.lambda;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.StackResources;
import java.util.Map;

/**
 * Points the functions at the embedded AWS stack (started once per test JVM) and starts one local site for the fetch
 * tests. Every Quarkus boot in this module shares the same resources.
 */
public class TestStack implements QuarkusTestResourceLifecycleManager {

    private static StackResources resources;
    private static LocalSites sites;

    static synchronized StackResources resources() {
        if (resources == null) {
            resources = EmbeddedAws.shared().provision("lambdas");
        }
        return resources;
    }

    static synchronized LocalSites sites() {
        if (sites == null) {
            sites = LocalSites.start(1);
        }
        return sites;
    }

    static EmbeddedAws aws() {
        return EmbeddedAws.shared();
    }

    @Override
    public Map<String, String> start() {
        EmbeddedAws aws = aws();
        StackResources r = resources();
        return Map.ofEntries(
                Map.entry("spiderling.aws.region", EmbeddedAws.REGION),
                Map.entry("spiderling.aws.endpoint.sqs", aws.sqsEndpoint().toString()),
                Map.entry("spiderling.aws.endpoint.dynamodb", aws.dynamoDbEndpoint().toString()),
                Map.entry("spiderling.aws.endpoint.s3", aws.s3Endpoint().toString()),
                Map.entry("spiderling.aws.access-key-id", EmbeddedAws.ACCESS_KEY),
                Map.entry("spiderling.aws.secret-access-key", EmbeddedAws.SECRET_KEY),
                Map.entry("spiderling.bucket", r.bucket()),
                Map.entry("spiderling.tables.urls", r.urlsTable()),
                Map.entry("spiderling.tables.batches", r.batchesTable()),
                Map.entry("spiderling.tables.sites", r.sitesTable()),
                Map.entry("spiderling.queues.fetch", r.fetchQueueUrl()));
    }

    @Override
    public void stop() {
        // The emulators and sites live for the whole test JVM; their shutdown hook stops them.
    }
}
