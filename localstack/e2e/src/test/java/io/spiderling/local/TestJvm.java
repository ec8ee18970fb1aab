package io.spiderling.local;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a child JVM that runs a main class from this test run's class path, with the flags every test
 * JVM of the build gets: the one place that knows them. Options such as a heap size go before the class.
 */
public final class TestJvm {

    private TestJvm() {}

    /** {@code java <the build's test flags> <options> -cp <this class path> <mainClass> <args>}. */
    public static List<String> command(List<String> options, String mainClass, List<String> args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "--enable-native-access=ALL-UNNAMED", "-XX:+EnableDynamicAgentLoading",
                "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                // as the build's test JVMs (test.jvm.tuning): short-lived, so C1's code is worth its lower cost
                "-XX:TieredStopAtLevel=1"));
        if (Runtime.version().feature() >= 23) {
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        command.addAll(options);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(args);
        return command;
    }
}
