package io.spiderling.lambda;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.StackResources;
import java.util.Map;

/**
 * Points the functions at the embedded AWS stack (started once per test JVM) and starts two local sites for the fetch
 * tests. Every Quarkus boot in this module shares the same resources.
 */
public class TestStack implements QuarkusTestResourceLifecycleManager {

    private static EmbeddedAws aws;
    private static StackResources resources;
    private static LocalSites sites;

    static synchronized StackResources resources() {
        if (resources == null) {
            resources = aws().provision("lambdas");
        }
        return resources;
    }

    static synchronized LocalSites sites() {
        if (sites == null) {
            sites = LocalSites.start(2);
        }
        return sites;
    }

    /** Started on first use and stopped when the test JVM exits: Quarkus boots several times against it. */
    static synchronized EmbeddedAws aws() {
        if (aws == null) {
            aws = EmbeddedAws.start();
            Runtime.getRuntime().addShutdownHook(new Thread(aws::close, "embedded-aws-shutdown"));
        }
        return aws;
    }

    /** The one site the handler tests' opt-out file lists. */
    static final String FILED_OPT_OUT = "filed-opt-out.example";

    @Override
    public Map<String, String> start() {
        Map<String, String> config = new java.util.HashMap<>(aws().functionConfig(resources()));
        config.put("spiderling.auth.clients-file", io.spiderling.testkit.SampleClients.file().toString());
        // The handler tests cover the links index, which is opt-in.
        config.put("spiderling.links.enabled", "true");
        // The handler tests share one local site and run back to back: at the default 1 request per second a test's
        // fetch would find the site's next slot taken by the previous test's and be parked instead of fetched.
        try {
            java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("spiderling-test-rates");
            dir.toFile().deleteOnExit();
            java.nio.file.Path file = sites().rateOverrides(dir, 50);
            file.toFile().deleteOnExit();
            config.put("spiderling.fetch.rate-overrides-file", file.toString());
            // The operator's opt-out file, which the API's opt-outs add to and cannot take from.
            java.nio.file.Path optOut = java.nio.file.Files.writeString(dir.resolve("opt-out.txt"), FILED_OPT_OUT
                    + "\n");
            optOut.toFile().deleteOnExit();
            config.put("spiderling.fetch.opt-out-file", optOut.toString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return config;
    }

    @Override
    public void stop() {
        // The emulators and sites live for the whole test JVM; their shutdown hook stops them.
    }
}
