package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.ConfigKeys;
import io.spiderling.catalog.FunctionSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;

class FunctionsTest {

    @Test
    void functions_whenJvmArtifact_oneJava21SnapStartFunctionPerCatalogEntry() {
        Synthesized jvm = Synth.jvmIam();
        // One per entry, plus CDK's own bucket-notifications handler.
        assertEquals(Catalog.FUNCTIONS.size() + 1, jvm.resources("AWS::Lambda::Function").size());
        for (FunctionSpec spec : Catalog.FUNCTIONS) {
            Map<String, Object> function = jvm.properties(jvm.functionId(spec.name()));
            assertEquals(spec.memoryMb(), ((Number) function.get("MemorySize")).intValue(), spec.name());
            assertEquals(spec.timeout().toSeconds(), ((Number) function.get("Timeout")).longValue(), spec.name());
            assertEquals(spec.description(), function.get("Description"), spec.name());
            assertEquals("java21", function.get("Runtime"), spec.name());
            assertEquals(Functions.JVM_HANDLER, function.get("Handler"), spec.name());
            assertEquals(List.of("arm64"), function.get("Architectures"), spec.name());
            assertEquals(Map.of("ApplyOn", "PublishedVersions"), function.get("SnapStart"), spec.name());
            assertEquals(spec.name(), jvm.environment(spec.name()).get("QUARKUS_LAMBDA_HANDLER"), spec.name());
            assertEquals(spec.reservedConcurrency().orElse(null),
                    function.get("ReservedConcurrentExecutions") == null ? null
                            : ((Number) function.get("ReservedConcurrentExecutions")).intValue(), spec.name());
        }
    }

    @Test
    void functions_whenJvmArtifact_eachPublishedAsAVersionBehindTheLiveAlias() {
        Synthesized jvm = Synth.jvmIam();
        assertEquals(Catalog.FUNCTIONS.size(), jvm.resources("AWS::Lambda::Version").size());
        for (FunctionSpec spec : Catalog.FUNCTIONS) {
            Map<String, Object> alias = jvm.properties(jvm.aliasId(spec.name()));
            assertEquals("live", alias.get("Name"));
            String version = Synthesized.ref(alias.get("FunctionVersion"));
            Map<String, Object> versionResource = jvm.resource(version);
            assertEquals("AWS::Lambda::Version", versionResource.get("Type"), spec.name());
            assertEquals(jvm.functionId(spec.name()),
                    Synthesized.ref(Synthesized.properties(versionResource).get("FunctionName")), spec.name());
        }
    }

    @Test
    void functions_whenJvmArtifactAndArchitectureChosen_runOnIt() {
        Synthesized jwt = Synth.jvmJwt();
        for (FunctionSpec spec : Catalog.FUNCTIONS) {
            assertEquals(List.of("x86_64"), jwt.properties(jwt.functionId(spec.name())).get("Architectures"));
        }
    }

    @Test
    void functions_whenNativeArtifact_runOnTheExecutablesArchitectureWithoutSnapStart() {
        Synthesized nativeBuild = Synth.nativeWithExtraEntries();
        for (FunctionSpec spec : Catalog.FUNCTIONS) {
            Map<String, Object> function = nativeBuild.properties(nativeBuild.functionId(spec.name()));
            assertEquals("provided.al2023", function.get("Runtime"), spec.name());
            assertEquals(List.of("x86_64"), function.get("Architectures"), spec.name());
            assertEquals(Functions.NATIVE_HANDLER, function.get("Handler"), spec.name());
            assertFalse(function.containsKey("SnapStart"), spec.name());
            assertEquals(spec.name(), nativeBuild.environment(spec.name()).get("QUARKUS_LAMBDA_HANDLER"));
            // The same alias path as a JVM build.
            assertEquals("live", nativeBuild.properties(nativeBuild.aliasId(spec.name())).get("Name"));
        }
    }

    /**
     * The logical id of the fetch function's published version when the rate overrides say {@code rates}: CDK names a
     * version after a hash of the function's configuration, and a new id is a new version.
     */
    private static String fetchVersion(String rates) {
        SpiderlingStackProps props = SpiderlingStackProps.builder()
                .artifact(TestArtifacts.jvmZip())
                .auth(ApiAuth.iam())
                .siteList(ConfigKeys.FETCH_RATE_OVERRIDES_FILE,
                        TestArtifacts.textFile("rates", rates))
                .build();
        Synthesized deployment = Synthesized.of(props, new SpiderlingStack(new App(), "Lists", props));
        return Synthesized.ref(deployment.properties(deployment.aliasId("fetch")).get("FunctionVersion"));
    }

    @Test
    void stack_whenNativeArtifactAndAnotherArchitectureAsked_refusesToBuild() {
        SpiderlingStackProps props = SpiderlingStackProps.builder()
                .artifact(TestArtifacts.nativeZip(TestArtifacts.EM_AARCH64))
                .architecture(CpuArchitecture.X86_64)
                .auth(ApiAuth.iam())
                .build();
        var e = assertThrows(RuntimeException.class, () -> new SpiderlingStack(new App(), "Mismatch", props));
        assertTrue(e.getMessage().contains("is a native build for ARM_64, but the deployment asks for X86_64"),
                e.getMessage());
    }

    @Test
    void version_whenOnlyASiteListChanges_isANewOneSoTheAliasMoves() {
        String before = fetchVersion("example.com 2\n");
        String after = fetchVersion("example.com 3\n");
        assertTrue(!before.equals(after), before);
    }

    @Test
    void functions_whenDeployed_eachHasItsOwnRoleAndLogGroupWithTheRetention() {
        Synthesized jvm = Synth.jvmIam();
        Synthesized jwt = Synth.jvmJwt();
        Set<Object> roles = Catalog.FUNCTIONS.stream()
                .map(spec -> Synthesized.ref(jvm.properties(jvm.functionId(spec.name())).get("Role")))
                .collect(Collectors.toSet());
        assertEquals(Catalog.FUNCTIONS.size(), roles.size());
        for (FunctionSpec spec : Catalog.FUNCTIONS) {
            for (Synthesized deployment : List.of(jvm, jwt)) {
                @SuppressWarnings("unchecked")
                var logging = (Map<String, Object>) deployment.properties(deployment.functionId(spec.name()))
                        .get("LoggingConfig");
                Map<String, Object> logGroup = deployment.properties(Synthesized.ref(logging.get("LogGroup")));
                assertEquals("/aws/lambda/spiderling-" + spec.name(), logGroup.get("LogGroupName"));
                assertEquals(deployment.props().logRetentionDays(),
                        ((Number) logGroup.get("RetentionInDays")).intValue());
            }
        }
    }
}
