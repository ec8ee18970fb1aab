package io.spiderling.testkit;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Injects one embedded stack shared by every test class of the test run and, per top-level test class, one freshly
 * provisioned {@link StackResources}, so test classes never see each other's tables, queues or objects. The stack
 * lives in the root context's store: started on first use, closed by JUnit when the run ends.
 *
 * <pre>{@code
 * @ExtendWith(EmbeddedAwsExtension.class)
 * class FooTest {
 *     @Test
 *     void x(EmbeddedAws aws, StackResources resources) { ... }
 * }
 * }</pre>
 */
public final class EmbeddedAwsExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(EmbeddedAwsExtension.class);
    // Leaves room for "-<counter>" within the provisioner's 55-character limit.
    private static final int MAX_NAME_LENGTH = 40;
    private static final AtomicInteger COUNTER = new AtomicInteger();

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == EmbeddedAws.class || type == StackResources.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        if (parameter.getParameter().getType() == EmbeddedAws.class) {
            return stack(context);
        }
        ExtensionContext classContext = classContext(context);
        return classContext.getStore(NAMESPACE).computeIfAbsent(
                StackResources.class,
                key -> stack(context).provision(prefixFor(classContext.getRequiredTestClass())),
                StackResources.class);
    }

    /** The run's stack: the emulators take seconds to start and milliseconds to provision. */
    private static EmbeddedAws stack(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE).computeIfAbsent(EmbeddedAws.class, key -> EmbeddedAws.start(),
                EmbeddedAws.class);
    }

    /**
     * The context of the top-level test class, whether parameters are resolved for a method or a constructor. Nested
     * classes group the tests of their enclosing class, so they share its resources.
     */
    private static ExtensionContext classContext(ExtensionContext context) {
        ExtensionContext current = context;
        while (current.getParent().flatMap(ExtensionContext::getTestClass).isPresent()) {
            current = current.getParent().orElseThrow();
        }
        return current;
    }

    /** "FetchHandlerTest" becomes "fetch-handler-test-7"; the counter keeps same-named classes apart. */
    static String prefixFor(Class<?> testClass) {
        String name = testClass.getSimpleName()
                .replaceAll("([a-z0-9])([A-Z])", "$1-$2")
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "-");
        name = name.substring(0, Math.min(name.length(), MAX_NAME_LENGTH)).replaceAll("^-+|-+$", "");
        return (name.isEmpty() ? "test" : name) + "-" + COUNTER.incrementAndGet();
    }
}
