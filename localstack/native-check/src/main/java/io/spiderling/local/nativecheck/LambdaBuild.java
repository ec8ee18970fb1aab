package io.spiderling.local.nativecheck;

import io.spiderling.catalog.FunctionSpec;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One way of running the functions, from an unzipped {@code function.zip} (the task root, {@code /var/task} on
 * Lambda): how to start the process of one function, and what Lambda's runtime sets in its environment besides the
 * function's configuration.
 */
public sealed interface LambdaBuild {

    /** A short name for tables and log files. */
    String label();

    Path taskRoot();

    /** The command that starts {@code function}'s process; its environment is filled in by the caller. */
    List<String> command(FunctionSpec function);

    /** What this runtime adds to the environment of {@code function}. */
    Map<String, String> runtimeVariables(FunctionSpec function);

    /**
     * The native build on {@code provided.al2023}: Lambda runs the zip's {@code bootstrap}, which is Quarkus's native
     * executable with its own Runtime API poll loop.
     */
    record Native(Path taskRoot) implements LambdaBuild {

        public Native {
            Path bootstrap = taskRoot.resolve("bootstrap");
            if (!Files.isRegularFile(bootstrap)) {
                throw new IllegalArgumentException("no bootstrap in " + taskRoot + ": not a native Lambda zip");
            }
            if (!Files.isExecutable(bootstrap)) {
                // Lambda runs the file with the mode the zip gives it; without the execute bit it cannot start.
                throw new IllegalArgumentException(bootstrap + " is not executable: the zip lost its mode bits");
            }
        }

        @Override
        public String label() {
            return "native";
        }

        @Override
        public List<String> command(FunctionSpec function) {
            return List.of(taskRoot.resolve("bootstrap").toString());
        }

        @Override
        public Map<String, String> runtimeVariables(FunctionSpec function) {
            return Map.of("LAMBDA_TASK_ROOT", taskRoot.toString());
        }
    }

    /**
     * The JVM build on the {@code java21} managed runtime, played by {@link LambdaRuntimeBridge}: the class path is the
     * zip's root, then its {@code lib/*.jar} (as the managed runtime loads a function), then the bridge.
     *
     * @param java the {@code java} executable: the JDK running the check, as this machine has no Java 21
     * @param bridgeClasses a directory holding only {@link LambdaRuntimeBridge}'s classes (see {@link #copyBridge})
     */
    record Jvm(Path taskRoot, Path java, Path bridgeClasses) implements LambdaBuild {

        /** The handler a JVM deployment names; Quarkus routes it to the @Named handler QUARKUS_LAMBDA_HANDLER picks. */
        public static final String HANDLER = "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest";

        @Override
        public String label() {
            return "jvm";
        }

        @Override
        public List<String> command(FunctionSpec function) {
            List<String> classPath = new ArrayList<>();
            classPath.add(taskRoot.toString());
            try (Stream<Path> jars = Files.list(taskRoot.resolve("lib"))) {
                jars.filter(jar -> jar.toString().endsWith(".jar")).sorted().map(Path::toString)
                        .forEach(classPath::add);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + taskRoot.resolve("lib"), e);
            }
            classPath.add(bridgeClasses.toString());
            // Roughly the flags the managed java21 runtime starts a function with: a heap of most of the memory, the
            // serial collector and C1 only, which suit one small process that lives for minutes.
            List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx" + function.memoryMb() * 85 / 100
                    + "m", "-XX:+UseSerialGC", "-XX:+TieredCompilation", "-XX:TieredStopAtLevel=1"));
            if (Runtime.version().feature() >= 24) {
                // Lambda runs Java 21; a newer JDK here closes java.lang, which JBoss Threads (under Vert.x and
                // Quarkus's executor) opens to reset thread locals. Quarkus's own launcher passes the same flag.
                command.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
            }
            command.addAll(List.of("-cp", String.join(File.pathSeparator, classPath),
                    LambdaRuntimeBridge.class.getName()));
            return command;
        }

        @Override
        public Map<String, String> runtimeVariables(FunctionSpec function) {
            return Map.of("LAMBDA_TASK_ROOT", taskRoot.toString(), "_HANDLER", HANDLER);
        }

        /**
         * Writes {@link LambdaRuntimeBridge} and its nested classes, and nothing else, under {@code directory}: the
         * function must not see this module's other classes or resources (an SDK interceptor list, say), which it
         * would if the bridge ran from this module's class path.
         */
        public static Path copyBridge(Path directory) {
            try {
                for (Class<?> type : LambdaRuntimeBridge.class.getNestMembers()) {
                    String resource = type.getName().replace('.', '/') + ".class";
                    Path target = directory.resolve(resource);
                    Files.createDirectories(target.getParent());
                    try (InputStream in = LambdaRuntimeBridge.class.getClassLoader().getResourceAsStream(resource)) {
                        if (in == null) {
                            throw new IllegalStateException("class file " + resource + " not on the class path");
                        }
                        Files.write(target, in.readAllBytes());
                    }
                }
                return directory;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot copy the runtime bridge to " + directory, e);
            }
        }
    }
}
