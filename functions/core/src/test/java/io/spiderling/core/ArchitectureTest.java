package io.spiderling.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.constructors;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * in, not to the stage that happened to need it first.
 *
 * <p>Two rules are about how classes are written rather than where they point: no static field may change (core has
 * no composition root), and no constructor takes more than five parameters, bar the records listed with their reasons
 * in {@link #WIDE_RECORDS}, which only their own builders call. Only the main classes are checked; tests may use
 * anything.
 */
@AnalyzeClasses(packages = "io.spiderling.core", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final String PIPELINE = "io.spiderling.core.pipeline";
    private static final String PORT = "io.spiderling.core.port";
    private static final String FRONTIER = "io.spiderling.core.frontier";
    private static final int MAX_PARAMETERS = 5;

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
     * No global mutable state: core has no composition root, so none of its static fields may change. (The rule for
     * the other modules' classes, with the composition root's exceptions, is in the lambdas module's ArchitectureTest,
     * which sees them all.)
     */
    @ArchTest
    static final ArchRule staticFields_areFinal = fields()
            .that().areStatic().and().doNotHaveModifier(JavaModifier.SYNTHETIC)
            .should().beFinal()
            .because("a warm Lambda shares every static field between its invocations, and no test can reset one");

    /**
     * Values and services with many parts are built by name (a builder, withers, or a parameter object), so that two
     * values of one type cannot be swapped unnoticed at a call site: {@code new BatchHeader(BATCH, 2, 0, ...)} reads as
     * nothing. The canonical constructor of a record counts, except for the records in {@link #WIDE_RECORDS}.
     */
    @ArchTest
    static final ArchRule constructors_takeAtMostFiveParameters = constructors()
            .that().areDeclaredInClassesThat().resideInAPackage("io.spiderling.core..")
            .should(new ArchCondition<JavaConstructor>("take at most " + MAX_PARAMETERS + " parameters") {
                @Override
                public void check(JavaConstructor constructor, ConditionEvents events) {
                    int count = constructor.getRawParameterTypes().size();
                    if (count > MAX_PARAMETERS && !WIDE_RECORDS.containsKey(constructor.getOwner().getName())) {
                        events.add(SimpleConditionEvent.violated(constructor, constructor.getFullName() + " takes "
                                + count + " parameters"));
                    }
                }
            })
            .because("a call site that passes six positional values cannot be read without the declaration at hand");

    /**
     * The records whose canonical constructor keeps more than five parameters, and why their fields are not grouped.
     * Each is built by name: a constructor of more than five parameters is called only from inside its own class (its
     * builder, its withers, its factories), which {@link #wideConstructors_areCalledOnlyFromTheirOwnClass} checks.
     */
    static final Map<String, String> WIDE_RECORDS = Map.ofEntries(
            Map.entry("io.spiderling.core.batch.BatchHeader",
                    "the batch header's stored fields, which only another issue's state model may change"),
            Map.entry("io.spiderling.core.politeness.SiteRate",
                    "the site's stored rate item, which only another issue's state model may change"),
            Map.entry("io.spiderling.core.batch.BatchStatus", "the batch row as stored: header, counts, milestones"),
            Map.entry("io.spiderling.core.batch.BatchOptions", "a batch's options; built by name, by its builder"),
            Map.entry("io.spiderling.core.batch.BatchItem", "one item as the status API lists it, field for field"),
            Map.entry("io.spiderling.core.batch.Waiting$RobotsUnreachable",
                    "one reason of the status API's waiting list, shown field for field"),
            Map.entry("io.spiderling.core.extract.ExtractionRecord", "the stored extraction row, field for field"),
            Map.entry("io.spiderling.core.extract.PageMetadata",
                    "what the extractor read, field for field as stored and as the API returns it"),
            Map.entry("io.spiderling.core.fetch.Capture", "a stored capture's key and digests, as WARC reads them"),
            Map.entry("io.spiderling.core.fetch.FetchRecord", "the stored fetch row, field for field"),
            Map.entry("io.spiderling.core.fetch.FetchResult$Response", "a response as the fetcher saw it"),
            Map.entry("io.spiderling.core.fetch.WireExchange", "an exchange as it went over the wire, for WARC"),
            Map.entry("io.spiderling.core.frontier.FrontierEntry", "the stored frontier entry, field for field"),
            Map.entry("io.spiderling.core.notify.CallbackEvent", "a webhook's body, field for field"),
            Map.entry("io.spiderling.core.port.UrlStore$UrlRecord", "the stored URL row, field for field"),
            Map.entry("io.spiderling.core.robots.RobotsCacheEntry", "the stored robots.txt entry, field for field"),
            Map.entry("io.spiderling.core.url.WhatwgUrl", "the WHATWG URL record, with the fields the standard names"),
            Map.entry("io.spiderling.core.pipeline.ingest.PlanUpload$ChunkOutcome", "one planned chunk's counts"),
            Map.entry("io.spiderling.core.pipeline.fetch.FetchPage$Settings", "settings: DEFAULTS and withers"),
            Map.entry("io.spiderling.core.politeness.RetryPolicy$Settings", "settings: DEFAULTS, withers, builder"),
            Map.entry("io.spiderling.core.robots.RobotsPolicy$Settings", "settings: DEFAULTS and builder"),
            Map.entry("io.spiderling.core.extract.HtmlExtractor$MetaTags", "private; made only by its own factories"),
            Map.entry("io.spiderling.core.robots.RobotsRules$Pattern", "private; made only by its own factories"));

    /** A record listed in {@link #WIDE_RECORDS} that is gone, or has narrowed, must leave the list. */
    @ArchTest
    static void wideRecords_areRecordsThatStillNeedTheException(JavaClasses classes) {
        List<String> stale = new ArrayList<>();
        for (String name : WIDE_RECORDS.keySet()) {
            boolean wide = classes.contain(name) && classes.get(name).isRecord() && classes.get(name).getConstructors()
                    .stream().anyMatch(c -> c.getRawParameterTypes().size() > MAX_PARAMETERS);
            if (!wide) {
                stale.add(name);
            }
        }
        if (!stale.isEmpty()) {
            throw new AssertionError("WIDE_RECORDS lists classes that are not records of more than "
                    + MAX_PARAMETERS + " components: " + stale);
        }
    }

    @ArchTest
    static final ArchRule wideConstructors_areCalledOnlyFromTheirOwnClass = classes()
            .should(new ArchCondition<JavaClass>("call a constructor of more than " + MAX_PARAMETERS
                    + " parameters only if it is their own, or their enclosing class's") {
                @Override
                public void check(JavaClass caller, ConditionEvents events) {
                    for (JavaConstructorCall call : caller.getConstructorCallsFromSelf()) {
                        JavaClass target = call.getTargetOwner();
                        if (call.getTarget().getRawParameterTypes().size() > MAX_PARAMETERS
                                && !within(caller, target)) {
                            events.add(SimpleConditionEvent.violated(call, call.getDescription()));
                        }
                    }
                }
            })
            .because("outside its own class, a value of many parts is made by name (its builder or withers)");

    /** Whether {@code inner} is {@code outer} or nested in it. */
    private static boolean within(JavaClass inner, JavaClass outer) {
        for (Optional<JavaClass> c = Optional.of(inner); c.isPresent(); c = c.get().getEnclosingClass()) {
            if (c.get().equals(outer)) {
                return true;
            }
        }
        return false;
    }

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
                boolean otherUseCase = !named.getValue().equals(reader.getValue()) && !named.getValue()
                        .equals(PIPELINE);
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
