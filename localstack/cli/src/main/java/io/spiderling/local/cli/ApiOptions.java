package io.spiderling.local.cli;

import io.spiderling.catalog.ConfigKey;
import io.spiderling.catalog.ConfigKeys;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;

/** Where a command's API calls go: a deployment with {@code --endpoint}, else the embedded stack. */
final class ApiOptions {

    @Option(names = "--endpoint", paramLabel = "URL", defaultValue = "${env:SPIDERLING_ENDPOINT}",
            description = "A deployment's API (cdk deploy prints it; env SPIDERLING_ENDPOINT). Without it, the"
                    + " embedded stack runs in this process.")
    URI endpoint;

    @Option(names = "--token", paramLabel = "TOKEN", defaultValue = "${env:SPIDERLING_TOKEN}",
            description = "Bearer token for --endpoint (env SPIDERLING_TOKEN).")
    String token;

    @Option(names = "--iam", description = "Sign requests to --endpoint with SigV4 (a deployment with IAM"
            + " authorization), using the AWS default credentials.")
    boolean iam;

    @Option(names = "--region", paramLabel = "REGION", defaultValue = "${env:AWS_REGION}",
            description = "The deployment's region, for --iam (env AWS_REGION).")
    String region;

    @Option(names = "--data", paramLabel = "DIR", defaultValue = ".spiderling/data",
            description = "Where the embedded stack keeps its data, locked against a second process (default:"
                    + " ${DEFAULT-VALUE}).")
    Path data;

    @Option(names = "--memory", description = "Keep nothing: the embedded stack lives in memory and is gone at exit.")
    boolean memory;

    @Option(names = "--port", paramLabel = "N", defaultValue = "0",
            description = "Port of the embedded stack's API on 127.0.0.1 (default: a free one).")
    int port;

    @Option(names = "--config", paramLabel = "KEY=VALUE", description = "A configuration key of the embedded stack's"
            + " functions, over application.properties (docs/configuration.md), e.g."
            + " spiderling.signing.enabled=true. Repeatable. Only for a stack this command starts.")
    Map<String, String> config = new LinkedHashMap<>();

    /** The --config keys, each checked against the catalog's keys, so a misspelt key is not silently ignored. */
    Map<String, String> config() {
        Set<String> known = ConfigKeys.all().stream().map(ConfigKey::name).collect(Collectors.toSet());
        for (String key : config.keySet()) {
            if (!known.contains(key)) {
                throw new CliException(ExitCode.USAGE, "--config " + key + ": no such configuration key"
                        + " (docs/configuration.md lists them)");
            }
        }
        return Map.copyOf(config);
    }

    /** Refuses --config where this command would not start the stack it configures. */
    void checkConfigApplies(String where) {
        if (!config.isEmpty()) {
            throw new CliException(ExitCode.USAGE, "--config configures an embedded stack this command starts; " + where
                    + " runs with its own configuration");
        }
    }

    /** The embedded stack's data folder; empty with --memory. */
    Optional<Path> dataFolder() {
        return memory ? Optional.empty() : Optional.of(data);
    }

    Optional<URI> endpoint() {
        return Optional.ofNullable(endpoint);
    }

    /** The deployment's credentials: SigV4 with --iam, else the token, which a deployment then needs. */
    ApiClient.Credentials remoteCredentials() {
        if (iam) {
            if (region == null || region.isBlank()) {
                throw new CliException(ExitCode.USAGE, "--iam needs the deployment's region: --region or AWS_REGION");
            }
            return new ApiClient.Credentials.SigV4(region, DefaultCredentialsProvider.builder().build());
        }
        if (token == null || token.isBlank()) {
            throw new CliException(ExitCode.USAGE, "--endpoint needs a token (--token or SPIDERLING_TOKEN), or --iam"
                    + " for a deployment with IAM authorization");
        }
        return new ApiClient.Credentials.Bearer(token.strip());
    }
}
