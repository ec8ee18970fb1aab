package io.spiderling.lambda;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import jakarta.inject.Named;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The {@code @Named} handlers of this module, found by looking at its classes, for the JVM outside Quarkus: the local
 * runner builds every catalog function's handler from here, and the tests hold the handlers and the catalog to each
 * other. On Lambda Quarkus finds them itself. A handler is a {@link RequestHandler} with a public constructor taking
 * the {@link Pipeline}, from which it takes what it needs.
 */
public final class Handlers {

    private static final String PACKAGE = Handlers.class.getPackageName();
    private static volatile Map<String, Class<? extends RequestHandler<?, ?>>> named;

    private Handlers() {}

    /** Every handler class by its {@code @Named} value. */
    public static Map<String, Class<? extends RequestHandler<?, ?>>> named() {
        Map<String, Class<? extends RequestHandler<?, ?>>> found = named;
        if (found == null) {
            found = Collections.unmodifiableMap(scan());
            named = found;
        }
        return found;
    }

    /**
     * A new instance of the handler named {@code name}, built from {@code pipeline}.
     *
     * @throws IllegalArgumentException when no handler has that name
     */
    @SuppressWarnings("unchecked")
    public static <I, O> RequestHandler<I, O> create(String name, Pipeline pipeline) {
        Class<? extends RequestHandler<?, ?>> type = named().get(name);
        if (type == null) {
            throw new IllegalArgumentException("no @Named(\"" + name + "\") handler in " + PACKAGE);
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

    @SuppressWarnings("unchecked")
    private static Map<String, Class<? extends RequestHandler<?, ?>>> scan() {
        Map<String, Class<? extends RequestHandler<?, ?>>> found = new TreeMap<>();
        for (String className : classNames()) {
            Class<?> type;
            try {
                type = Class.forName(className, false, Handlers.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                continue;
            }
            Named name = type.getAnnotation(Named.class);
            if (name != null && RequestHandler.class.isAssignableFrom(type)) {
                Class<?> earlier = found.put(name.value(), (Class<? extends RequestHandler<?, ?>>) type);
                if (earlier != null) {
                    throw new IllegalStateException("two handlers named " + name.value() + ": " + earlier.getName()
                            + " and " + type.getName());
                }
            }
        }
        return found;
    }

    /** The classes of this module's package tree, from its directory (a build) or its jar. */
    private static java.util.List<String> classNames() {
        Path root;
        try {
            root = Path.of(Handlers.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the handlers' classes", e);
        }
        String dir = PACKAGE.replace('.', '/');
        try {
            if (Files.isDirectory(root)) {
                try (Stream<Path> files = Files.walk(root.resolve(dir))) {
                    return files.map(root::relativize).map(Path::toString).filter(n -> n.endsWith(".class"))
                            .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.')
                                    .replace('\\', '.'))
                            .toList();
                }
            }
            try (JarFile jar = new JarFile(root.toFile())) {
                return jar.stream().map(java.util.zip.ZipEntry::getName)
                        .filter(n -> n.startsWith(dir + "/") && n.endsWith(".class"))
                        .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
                        .toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the handlers' classes in " + root, e);
        }
    }
}
