package io.spiderling.lambda;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.lambda.api.ApiHandler;
import io.spiderling.lambda.canonicalize.CanonicalizeHandler;
import io.spiderling.lambda.extract.ExtractHandler;
import io.spiderling.lambda.fetch.FetchDeadLetterHandler;
import io.spiderling.lambda.fetch.FetchHandler;
import io.spiderling.lambda.ingest.IngestHttpHandler;
import io.spiderling.lambda.ingest.IngestQueueHandler;
import io.spiderling.lambda.notify.NotifyDeadLetterHandler;
import io.spiderling.lambda.notify.NotifyHandler;
import io.spiderling.lambda.plan.PlanHandler;
import io.spiderling.lambda.sweep.SweepHandler;
import io.spiderling.lambda.wake.WakeHandler;
import jakarta.inject.Named;
import java.lang.reflect.InvocationTargetException;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The handler of each catalog function, for the JVM outside Quarkus: the local runner builds every catalog function's
 * handler from here, and the tests hold the handlers and the catalog to each other. On Lambda Quarkus finds them by
 * their {@code @Named} value itself. A handler is a {@link RequestHandler} with a public constructor taking the
 * {@link Pipeline}, from which it takes what it needs.
 *
 * <p>The functions come from the catalog; this class only says which class serves each. A catalog function without
 * a handler here, or a handler whose {@code @Named} value is not its function's name, fails when the class loads.
 */
public final class Handlers {

    /** The class serving each function, by the function's name. */
    private static final Map<String, Class<? extends RequestHandler<?, ?>>> CLASSES = Map.ofEntries(
            Map.entry(FunctionNames.INGEST, IngestHttpHandler.class),
            Map.entry(FunctionNames.INGEST_QUEUE, IngestQueueHandler.class),
            Map.entry(FunctionNames.CANONICALIZE, CanonicalizeHandler.class),
            Map.entry(FunctionNames.PLAN, PlanHandler.class),
            Map.entry(FunctionNames.FETCH, FetchHandler.class),
            Map.entry(FunctionNames.FETCH_DLQ, FetchDeadLetterHandler.class),
            Map.entry(FunctionNames.EXTRACT, ExtractHandler.class),
            Map.entry(FunctionNames.NOTIFY, NotifyHandler.class),
            Map.entry(FunctionNames.NOTIFY_DLQ, NotifyDeadLetterHandler.class),
            Map.entry(FunctionNames.API, ApiHandler.class),
            Map.entry(FunctionNames.SWEEP, SweepHandler.class),
            Map.entry(FunctionNames.WAKE, WakeHandler.class));

    /** Every catalog function's handler class, by the function's name (its {@code @Named} value). */
    private static final Map<String, Class<? extends RequestHandler<?, ?>>> NAMED = fromCatalog();

    private Handlers() {}

    /** Every catalog function's handler class, by the function's name (its {@code @Named} value). */
    public static Map<String, Class<? extends RequestHandler<?, ?>>> named() {
        return NAMED;
    }

    /**
     * A new instance of the handler named {@code name}, built from {@code pipeline}.
     *
     * @throws IllegalArgumentException when no handler has that name
     */
    @SuppressWarnings("unchecked")
    public static <I, O> RequestHandler<I, O> create(String name, Pipeline pipeline) {
        Class<? extends RequestHandler<?, ?>> type = NAMED.get(name);
        if (type == null) {
            throw new IllegalArgumentException("no @Named(\"" + name + "\") handler for a catalog function");
        }
        try {
            return (RequestHandler<I, O>) type.getConstructor(Pipeline.class).newInstance(pipeline);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException r ? r
                    : new IllegalStateException("building " + name + " failed", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(type.getName() + " needs a public constructor taking the Pipeline", e);
        }
    }

    private static Map<String, Class<? extends RequestHandler<?, ?>>> fromCatalog() {
        Map<String, Class<? extends RequestHandler<?, ?>>> named = new TreeMap<>();
        for (FunctionSpec function : Catalog.FUNCTIONS) {
            Class<? extends RequestHandler<?, ?>> type = CLASSES.get(function.name());
            if (type == null) {
                throw new IllegalStateException("no handler for the catalog's function " + function.name());
            }
            Named annotation = type.getAnnotation(Named.class);
            if (annotation == null || !annotation.value().equals(function.name())) {
                throw new IllegalStateException(type.getName() + " must be @Named(\"" + function.name() + "\")");
            }
            named.put(function.name(), type);
        }
        if (!named.keySet().equals(CLASSES.keySet())) {
            throw new IllegalStateException("handlers of functions not in the catalog: " + CLASSES.keySet());
        }
        return Collections.unmodifiableMap(named);
    }
}
