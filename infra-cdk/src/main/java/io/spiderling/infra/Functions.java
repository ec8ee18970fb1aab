package io.spiderling.infra;

import io.spiderling.catalog.FunctionSpec;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.lambda.SnapStartConf;
import software.amazon.awscdk.services.logs.LogGroup;
import software.constructs.Construct;

/**
 * One Lambda function per catalog entry, all from the one artifact: its handler picked by
 * {@code QUARKUS_LAMBDA_HANDLER}, its size from the catalog, its environment the keys it reads, its role granted what
 * its entry names. Every function is published as a version behind the alias {@value #ALIAS}, and every event source
 * targets the alias: for a JVM build that is what SnapStart needs (it snapshots published versions only), and a
 * native build goes the same way so there is one code path.
 */
public final class Functions extends Construct {

    static final String ALIAS = "live";

    /** Quarkus's entry point for every JVM handler; it dispatches to the {@code @Named} one. */
    static final String JVM_HANDLER = "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest";

    /** The provided runtime starts {@code bootstrap} and never reads the handler, but Lambda requires one. */
    static final String NATIVE_HANDLER = "not.used.by.the.provided.runtime";

    private final Map<String, DeployedFunction> functions = new LinkedHashMap<>();

    public Functions(Construct scope, String id, FunctionsProps props) {
        super(scope, id);
        Code code = Code.fromAsset(props.artifact().zip().toString());
        for (FunctionSpec spec : props.functions()) {
            functions.put(spec.name(), deploy(spec, code, props));
        }
    }

    /** The function named {@code name} in the catalog. */
    public DeployedFunction function(String name) {
        DeployedFunction function = functions.get(name);
        if (function == null) {
            throw new IllegalArgumentException("no function " + name + " in this deployment");
        }
        return function;
    }

    public Collection<DeployedFunction> all() {
        return functions.values();
    }

    private DeployedFunction deploy(FunctionSpec spec, Code code, FunctionsProps props) {
        String id = Names.constructId(spec.name());
        String name = props.resourcePrefix() + "-" + spec.name();
        // A role per function, not CDK's default with the AWSLambdaBasicExecutionRole managed policy: that policy
        // lets a function write to any log group, and this one needs only its own.
        Role role = Role.Builder.create(this, id + "Role")
                .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
                .description("Spiderling " + spec.name() + ": what its catalog entry names, and its own log group")
                .build();
        LogGroup logGroup = LogGroup.Builder.create(this, id + "Logs")
                .logGroupName("/aws/lambda/" + name)
                .retention(LogRetention.days(props.logRetentionDays()))
                // Retention bounds them anyway; leaving them behind would block the next deployment's names.
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
        logGroup.grantWrite(role);

        var builder = Function.Builder.create(this, id)
                .functionName(name)
                .description(spec.description())
                .code(code)
                .memorySize(spec.memoryMb())
                .timeout(Duration.seconds(spec.timeout().toSeconds()))
                .architecture(architecture(props.architecture()))
                .role(role)
                .logGroup(logGroup)
                .environment(props.config().environmentOf(spec));
        Optional.ofNullable(props.reservedConcurrency().get(spec.name()))
                .ifPresent(builder::reservedConcurrentExecutions);
        switch (props.artifact().packaging()) {
            case JVM -> builder.runtime(Runtime.JAVA_21).handler(JVM_HANDLER)
                    .snapStart(SnapStartConf.ON_PUBLISHED_VERSIONS);
            case NATIVE -> builder.runtime(Runtime.PROVIDED_AL2023).handler(NATIVE_HANDLER);
        }
        props.siteLists().filter(lists -> lists.neededBy(spec))
                .ifPresent(lists -> builder.layers(List.of(lists.layer())));
        Function function = builder.build();
        if (props.artifact().packaging() == FunctionArtifact.Packaging.JVM) {
            acceptJvmRuntime(function);
        }
        CatalogGrants.apply(spec, role, props.storage(), props.queues());
        acceptCatalogWildcards(spec, role, props.storage());

        // currentVersion hashes the function's configuration (code, environment, layers), so a deployment that
        // changes any of them publishes a new version, and the alias moves to it.
        Alias alias = Alias.Builder.create(this, id + "Live")
                .aliasName(ALIAS)
                .version(function.getCurrentVersion())
                .build();
        return new DeployedFunction(spec, function, alias);
    }

    private static void acceptJvmRuntime(Function function) {
        Nag.accept(function, "AwsSolutions-L1", "The functions are compiled for Java 21 (maven.compiler.release in"
                + " the parent pom), which Lambda's java21 runtime runs; a newer runtime is a build decision, taken"
                + " together with the bytecode level.");
        Annotations.of(function).acknowledgeWarning("@aws-cdk/aws-lambda:snapStartRequirePublish",
                "Every function is published as a version (currentVersion) behind the alias " + ALIAS);
    }

    /** The role's policy holds wildcards only where the catalog entry explains them; those are accepted by name. */
    private static void acceptCatalogWildcards(FunctionSpec spec, Role role, Storage storage) {
        List<String> wildcards = CatalogGrants.wildcards(spec, storage);
        if (!wildcards.isEmpty()) {
            Nag.accept(role.getNode().findChild("DefaultPolicy"), "AwsSolutions-IAM5", "Only what the catalog"
                    + " entry of " + spec.name() + " names: the objects under its bucket prefixes (arn/prefix/*),"
                    + " each with the actions its code calls.", wildcards);
        }
    }

    private static Architecture architecture(CpuArchitecture cpu) {
        return switch (cpu) {
            case X86_64 -> Architecture.X86_64;
            case ARM_64 -> Architecture.ARM_64;
        };
    }

    /** A catalog entry as deployed: the function, and the alias its event sources invoke. */
    public record DeployedFunction(FunctionSpec spec, Function function, Alias alias) {

        /** What event sources, routes and notifications invoke. */
        public IFunction target() {
            return alias;
        }
    }

    /** What the functions are built from. */
    public static final class FunctionsProps {
        private final List<FunctionSpec> functions;
        private final String resourcePrefix;
        private final FunctionArtifact artifact;
        private final CpuArchitecture architecture;
        private final int logRetentionDays;
        private final ConfigValues config;
        private final Optional<SiteLists> siteLists;
        private final Storage storage;
        private final Queues queues;
        private final Map<String, Integer> reservedConcurrency;

        private FunctionsProps(Builder b) {
            this.functions = List.copyOf(b.functions);
            this.resourcePrefix = Objects.requireNonNull(b.resourcePrefix, "resourcePrefix");
            this.artifact = Objects.requireNonNull(b.artifact, "artifact");
            this.architecture = Objects.requireNonNull(b.architecture, "architecture");
            this.logRetentionDays = b.logRetentionDays;
            this.config = Objects.requireNonNull(b.config, "config");
            this.siteLists = Objects.requireNonNull(b.siteLists, "siteLists");
            this.storage = Objects.requireNonNull(b.storage, "storage");
            this.queues = Objects.requireNonNull(b.queues, "queues");
            this.reservedConcurrency = Map.copyOf(b.reservedConcurrency);
        }

        public static Builder builder() {
            return new Builder();
        }

        /** The catalog entries to deploy. */
        List<FunctionSpec> functions() {
            return functions;
        }

        String resourcePrefix() {
            return resourcePrefix;
        }

        FunctionArtifact artifact() {
            return artifact;
        }

        /** The CPU the functions run on: the artifact's, for a native build. */
        CpuArchitecture architecture() {
            return architecture;
        }

        int logRetentionDays() {
            return logRetentionDays;
        }

        /** The deployment's values for configuration keys. */
        ConfigValues config() {
            return config;
        }

        /** The layer of site lists, if the deployment ships any. */
        Optional<SiteLists> siteLists() {
            return siteLists;
        }

        Storage storage() {
            return storage;
        }

        Queues queues() {
            return queues;
        }

        /** The concurrency reserved for each function that has some, by name. */
        Map<String, Integer> reservedConcurrency() {
            return reservedConcurrency;
        }

        public static final class Builder {
            private List<FunctionSpec> functions;
            private String resourcePrefix;
            private FunctionArtifact artifact;
            private CpuArchitecture architecture;
            private int logRetentionDays;
            private ConfigValues config;
            private Optional<SiteLists> siteLists = Optional.empty();
            private Storage storage;
            private Queues queues;
            private Map<String, Integer> reservedConcurrency = Map.of();

            private Builder() {}

            public Builder functions(List<FunctionSpec> functions) {
                this.functions = functions;
                return this;
            }

            public Builder resourcePrefix(String prefix) {
                this.resourcePrefix = prefix;
                return this;
            }

            public Builder artifact(FunctionArtifact artifact) {
                this.artifact = artifact;
                return this;
            }

            public Builder architecture(CpuArchitecture cpu) {
                this.architecture = cpu;
                return this;
            }

            public Builder logRetentionDays(int days) {
                this.logRetentionDays = days;
                return this;
            }

            public Builder config(ConfigValues config) {
                this.config = config;
                return this;
            }

            public Builder siteLists(Optional<SiteLists> lists) {
                this.siteLists = lists;
                return this;
            }

            public Builder storage(Storage storage) {
                this.storage = storage;
                return this;
            }

            public Builder queues(Queues queues) {
                this.queues = queues;
                return this;
            }

            public Builder reservedConcurrency(Map<String, Integer> reserved) {
                this.reservedConcurrency = reserved;
                return this;
            }

            public FunctionsProps build() {
                return new FunctionsProps(this);
            }
        }
    }
}
