package io.spiderling.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Which way dependencies point inside core. The Maven modules already keep core free of AWS, Quarkus and Vert.x; these
 * rules keep its packages in order:
 *
 * <pre>
 *   pipeline.ingest  pipeline.fetch  pipeline.extract  pipeline.batch  pipeline.query   (one package per use case)
 *            \             |                |               |            /
 *             pipeline (the helpers several use cases share)      frontier (a service over ports)
 *                                  |                                   /
 *                                  v                                  v
 *                                port (interfaces for stores and queues)
 *                                  |
 *                                  v
 *   decisions: every other package (url, robots, politeness, recrawl, extract, notify, batch, net, fetch, content,
 *              auth): pure functions and values, no I/O
 * </pre>
 *
 * <p>Use-case packages do not use each other: a fact two stages share (an S3 key, a metadata name, a timeout) belongs
 * to a decision package, to a helper in {@code pipeline} itself, or to a settings record the composition root passes
 * in, not to the stage that happened to need it first. Only the main classes are checked; tests may use anything.
 */
@AnalyzeClasses(packages = "io.spiderling.core", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final String PIPELINE = "io.spiderling.core.pipeline";
    private static final String PORT = "io.spiderling.core.port";
    private static final String FRONTIER = "io.spiderling.core.frontier";

    @ArchTest
    static final ArchRule core_dependsOnNoCloudOrFrameworkClasses = noClasses()
            .should().dependOnClassesThat().resideInAnyPackage("software.amazon..", "io.quarkus..", "io.vertx..")
            .because("core is plain Java: adapters and handlers live in the aws and lambdas modules");

    @ArchTest
    static final ArchRule decisions_neverReachPipelineOrPorts = noClasses()
            .that().resideOutsideOfPackages(PIPELINE + "..", PORT + "..", FRONTIER + "..")
            .should().transitivelyDependOnClassesThat().resideInAnyPackage(PIPELINE + "..", PORT + "..")
            .because("decisions are pure functions of their inputs: no store, no queue, no stage. frontier is left"
                    + " out because its Frontier drives ports (it is a service, like a use case); its values are"
                    + " still covered, since a decision that reaches Frontier reaches a port through it");

    @ArchTest
    static final ArchRule onlyPipeline_dependsOnPipeline = noClasses()
            .that().resideOutsideOfPackage(PIPELINE + "..")
            .should().dependOnClassesThat().resideInAPackage(PIPELINE + "..")
            .because("ports and the frontier serve the use cases, not the other way round");

    @ArchTest
    static final ArchRule useCasePackages_doNotDependOnEachOther = slices()
            .matching(PIPELINE + ".(*)..")
            .should().notDependOnEachOther()
            .because("each stage is deployed, retried and changed on its own; what two stages share lives in a"
                    + " decision package, in pipeline itself or in a settings record, not in one of them");

    @ArchTest
    static final ArchRule sharedHelpers_doNotDependOnUseCases = noClasses()
            .that().resideInAPackage(PIPELINE)
            .should().dependOnClassesThat().resideInAPackage(PIPELINE + ".*..")
            .because("a shared helper that reached into a use case would be a back door between use cases");

    /**
     * The rules above read class files, and javac copies a constant ({@code static final} primitive or String, such
     * as a metadata key name or a batch size) into every class that reads it, leaving no trace of where it came from.
     * So the sources of the pipeline are read too: outside comments and string literals, a class of a use-case
     * package, or a shared helper, never names a class of another use-case package.
     */
    @ArchTest
    static void useCasePackages_doNotNameEachOther_evenForConstants(JavaClasses classes) throws IOException {
        Map<String, String> packageOf = new TreeMap<>();
        classes.stream().filter(c -> c.getPackageName().startsWith(PIPELINE))
                .filter(c -> !c.getSimpleName().equals("package-info"))
                .forEach(c -> packageOf.put(owner(c), c.getPackageName()));
        List<String> found = new ArrayList<>();
        for (Map.Entry<String, String> reader : packageOf.entrySet()) {
            String code = Sources.code(Sources.mainRoot(ArchitectureTest.class)
                    .resolve(reader.getValue().replace('.', '/')).resolve(reader.getKey() + ".java"));
            for (Map.Entry<String, String> named : packageOf.entrySet()) {
                boolean otherUseCase = !named.getValue().equals(reader.getValue()) && !named.getValue().equals(PIPELINE);
                if (otherUseCase && Pattern.compile("\\b" + named.getKey() + "\\b").matcher(code).find()) {
                    found.add(reader.getKey() + " names " + named.getValue() + "." + named.getKey());
                }
            }
        }
        if (!found.isEmpty()) {
            throw new AssertionError("use-case packages must not name each other, not even for a constant: " + found);
        }
    }

    /** The top-level class a class is part of: FetchPage for FetchPage$Settings or FetchPage$1. */
    private static String owner(JavaClass c) {
        String name = c.getName().substring(c.getPackageName().length() + 1);
        int nested = name.indexOf('$');
        return nested < 0 ? name : name.substring(0, nested);
    }
}
