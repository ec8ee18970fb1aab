package io.spiderling.lambda;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.spiderling.lambda.config.Beans;
import jakarta.inject.Named;
import java.util.Optional;
import java.util.Set;

/**
 * Rules over the production classes of every module on this class path: catalog, core, aws and these handlers. (Core
 * checks its own package rules in its own ArchitectureTest, which sees only core; {@code localstack} is not on this
 * class path and is not covered.)
 *
 * <ul>
 *   <li><b>No global mutable state.</b> A non-final static field is state every handler of a warm Lambda shares,
 *       which no test can reset and no reader can see being set. State lives in objects the composition root makes
 *       and passes in; only the composition root itself may hold one ({@link #COMPOSITION_ROOT}).</li>
 *   <li><b>Named construction across modules.</b> Core's rule that a constructor of more than five parameters is
 *       called only from its own class (its builder) is checked here for the callers in the other modules.</li>
 *   <li><b>The handlers are the catalog's.</b> Every {@code @Named} {@link RequestHandler} is the one {@link Handlers}
 *       gives for its catalog function.</li>
 * </ul>
 */
@AnalyzeClasses(packages = {"io.spiderling.catalog", "io.spiderling.core", "io.spiderling.aws", "io.spiderling.lambda"},
        importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final int MAX_PARAMETERS = 5;

    /**
     * The composition root, which may keep what it builds in a static field: none of its classes does today, and a
     * class added here needs the reason written beside it.
     */
    static final Set<Class<?>> COMPOSITION_ROOT = Set.of(
            Pipeline.class, // builds the object graph once per cold start, from the function's configuration
            Beans.class); // the CDI producers that hand the Pipeline's parts to Quarkus

    @ArchTest
    static final ArchRule staticFields_areFinalOutsideTheCompositionRoot = fields()
            .that().areStatic()
            .and().areDeclaredInClassesThat().resideInAPackage("io.spiderling..")
            .and().areDeclaredInClassesThat(DescribedPredicate.describe("are outside the composition root",
                    (JavaClass c) -> !inCompositionRoot(c)))
            .and().doNotHaveModifier(JavaModifier.SYNTHETIC)
            .should().beFinal()
            .because("a warm Lambda shares every static field between its invocations: state is made by the"
                    + " composition root and passed in, where a test can make its own");

    @ArchTest
    static final ArchRule wideConstructors_areCalledOnlyFromTheirOwnClass = classes()
            .should(new ArchCondition<JavaClass>("call a core constructor of more than " + MAX_PARAMETERS
                    + " parameters only from inside its class") {
                @Override
                public void check(JavaClass caller, ConditionEvents events) {
                    for (JavaConstructorCall call : caller.getConstructorCallsFromSelf()) {
                        JavaClass target = call.getTargetOwner();
                        boolean core = target.getPackageName().startsWith("io.spiderling.core");
                        if (core && call.getTarget().getRawParameterTypes().size() > MAX_PARAMETERS
                                && !nestedIn(caller, target)) {
                            events.add(SimpleConditionEvent.violated(call, call.getDescription()));
                        }
                    }
                }
            })
            .because("a core value of many parts is made by name, through its builder or withers");

    @ArchTest
    static final ArchRule namedHandlers_areTheCatalogsHandlers = classes()
            .that().areAnnotatedWith(Named.class).and().areAssignableTo(RequestHandler.class)
            .should(new ArchCondition<JavaClass>("be the handler Handlers gives for their catalog function") {
                @Override
                public void check(JavaClass handler, ConditionEvents events) {
                    String name = handler.getAnnotationOfType(Named.class).value();
                    Class<?> listed = Handlers.named().get(name);
                    if (listed == null || !listed.getName().equals(handler.getName())) {
                        events.add(SimpleConditionEvent.violated(handler, handler.getName() + " is @Named(\"" + name
                                + "\"), but Handlers gives " + listed + " for that function"));
                    }
                }
            })
            .because("the local runner and the tests build handlers from Handlers, and Lambda by their names");

    private static boolean inCompositionRoot(JavaClass c) {
        return COMPOSITION_ROOT.stream().anyMatch(root -> nestedIn(c, root.getName()));
    }

    /** Whether {@code inner} is {@code outer} or nested in it. */
    private static boolean nestedIn(JavaClass inner, JavaClass outer) {
        return nestedIn(inner, outer.getName());
    }

    private static boolean nestedIn(JavaClass inner, String outer) {
        for (Optional<JavaClass> c = Optional.of(inner); c.isPresent(); c = c.get().getEnclosingClass()) {
            if (c.get().getName().equals(outer)) {
                return true;
            }
        }
        return false;
    }
}
