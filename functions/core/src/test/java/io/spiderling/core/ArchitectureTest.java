package io.spiderling.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Which way dependencies point inside core. The Maven modules already keep core free of AWS, Quarkus and Vert.x; these
 * rules keep its packages in order:
 *
 * <pre>
 *   pipeline (use cases, and the helpers they share)
 *      |  \
 *      |   frontier (a service over ports, shared by several use cases)
 *      v   /
 *     port (interfaces for stores and queues)
 *      |
 *      v
 *   decisions: every other package (url, robots, politeness, recrawl, extract, notify, batch, net, fetch, content,
 *              auth): pure functions and values, no I/O
 * </pre>
 *
 * <p>Inside {@code pipeline}, use cases do not use each other: a fact two stages share (an S3 key, a metadata name,
 * a timeout) belongs to a decision package or to a settings record the composition root passes in, not to the stage
 * that happened to need it first. Only the main classes are checked; tests may use anything.
 */
@AnalyzeClasses(packages = "io.spiderling.core", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final String PIPELINE = "io.spiderling.core.pipeline";
    private static final String PORT = "io.spiderling.core.port";
    private static final String FRONTIER = "io.spiderling.core.frontier";

    /**
     * The classes of {@code pipeline} that are not use cases but pieces several use cases share (or one use case's
     * part, kept apart for size): a use case may use them, they never use a use case. Every other class of the
     * package (with its nested classes) is a use case: what a handler or the composition root calls to do one job
     * (FetchPage, ExtractContent, Canonicalize, Ingest, PlanUpload, NotifyBatch, CancelBatch, EmitCompletion,
     * Queries, BatchWaiting, UpdateFields). A new class is a use case unless it is listed here.
     */
    static final Set<String> SHARED_HELPERS = Set.of(
            "BatchTracker", // ends items and records a batch's completion, for every stage that ends items
            "ItemPlanner", // plans a group of queued items, for Canonicalize and PlanUpload
            "ItemEndings", // ends the items waiting on a fetched URL, for FetchPage
            "FetchRecords", // builds the URL's metadata row from a response, for FetchPage
            "SitePoliteness", // robots.txt and the rate slot of a site, for FetchPage
            "RedirectFollower", // sends a redirect chain's hops and resolves their targets, for pages and robots.txt
            "MessageGroups"); // per-group failure handling of an SQS batch, for the handlers

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
    static final ArchRule useCases_doNotDependOnEachOther = slices()
            .assignedFrom(new UseCases())
            .should().notDependOnEachOther()
            .because("each stage is deployed, retried and changed on its own; what two stages share lives in a"
                    + " decision package, a shared helper or a settings record, not in one of them");

    @ArchTest
    static final ArchRule sharedHelpers_doNotDependOnUseCases = noClasses()
            .that(sharedHelper())
            .should().dependOnClassesThat(useCase())
            .because("a helper that reached into a use case would be a back door between use cases");

    /** A name in {@link #SHARED_HELPERS} that names no class would silently turn a helper into a use case. */
    @ArchTest
    static void sharedHelpers_allExist(JavaClasses classes) {
        Set<String> missing = new TreeSet<>(SHARED_HELPERS);
        classes.stream().filter(c -> c.getPackageName().equals(PIPELINE)).map(ArchitectureTest::owner)
                .forEach(missing::remove);
        if (!missing.isEmpty()) {
            throw new AssertionError("SHARED_HELPERS lists classes that are not in " + PIPELINE + ": " + missing);
        }
    }

    /**
     * The rules above read class files, and javac copies a constant ({@code static final} primitive or String, such
     * as a metadata key name or a batch size) into every class that reads it, leaving no trace of where it came from.
     * So the sources of the pipeline are read too: outside comments and string literals, a use case or a shared helper
     * never names another use case.
     */
    @ArchTest
    static void useCases_doNotNameEachOther_evenForConstants(JavaClasses classes) throws IOException {
        Set<String> useCases = new TreeSet<>();
        classes.stream().filter(useCase()).map(ArchitectureTest::owner).forEach(useCases::add);
        Set<String> pipeline = new TreeSet<>(useCases);
        pipeline.addAll(SHARED_HELPERS);
        List<String> found = new ArrayList<>();
        for (String reader : pipeline) {
            String code = Sources.code(Sources.mainRoot(ArchitectureTest.class)
                    .resolve(PIPELINE.replace('.', '/')).resolve(reader + ".java"));
            for (String named : useCases) {
                if (!named.equals(reader) && Pattern.compile("\\b" + named + "\\b").matcher(code).find()) {
                    found.add(reader + " names " + named);
                }
            }
        }
        if (!found.isEmpty()) {
            throw new AssertionError("use cases must not name each other, not even for a constant: " + found);
        }
    }

    /** Each use case, with its nested classes, is a slice of its own; helpers and other packages are in none. */
    static final class UseCases implements SliceAssignment {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            return useCase().test(c) ? SliceIdentifier.of(owner(c)) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the use cases of " + PIPELINE + " (each with its nested classes)";
        }
    }

    private static DescribedPredicate<JavaClass> useCase() {
        return DescribedPredicate.describe("are use cases of " + PIPELINE,
                c -> c.getPackageName().equals(PIPELINE) && !SHARED_HELPERS.contains(owner(c))
                        && !c.getSimpleName().equals("package-info"));
    }

    private static DescribedPredicate<JavaClass> sharedHelper() {
        return DescribedPredicate.describe("are shared helpers of " + PIPELINE,
                c -> c.getPackageName().equals(PIPELINE) && SHARED_HELPERS.contains(owner(c)));
    }

    /** The top-level class a class is part of: FetchPage for FetchPage$Settings or FetchPage$1. */
    private static String owner(JavaClass c) {
        String name = c.getName().substring(c.getPackageName().length() + 1);
        int nested = name.indexOf('$');
        return nested < 0 ? name : name.substring(0, nested);
    }
}
