package io.spiderling.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The calls the end-to-end and fault suites recorded (the local runner's {@code CallRecorder}), merged: each line of
 * a recording is {@code caller\taction\tresource\tcalls}, a caller {@code function:<name>},
 * {@code event-source:<name>}, {@code local} or {@code unattributed}.
 */
record RecordedCalls(Path directory, List<Call> calls) {

    /** The property naming the folder of this build's recordings; least-privilege's POM sets it. */
    static final String PROPERTY = "spiderling.recorded-calls";

    /** One distinct call: who made it, the IAM action it needs, on what, how many times. */
    record Call(String caller, String action, String resource, long count) {

        /** The function whose role makes the call on AWS: its own, or its event source mapping's; else empty. */
        String function() {
            int colon = caller.indexOf(':');
            return colon < 0 ? "" : caller.substring(colon + 1);
        }

        boolean byFunction() {
            return caller.startsWith("function:") || caller.startsWith("event-source:");
        }
    }

    /** This build's recordings, or a failure that says how to make them. */
    static RecordedCalls ofThisBuild() {
        String folder = System.getProperty(PROPERTY);
        // A relative folder is the repository's (the test runs in least-privilege/).
        Path directory = folder == null ? null : Path.of(folder).isAbsolute() || Files.isDirectory(Path.of(folder))
                ? Path.of(folder) : Path.of("..").resolve(folder);
        if (directory == null || !Files.isDirectory(directory)) {
            throw new AssertionError("""
                    The least-privilege check found no calls recorded by this build's end-to-end suites%s.
                    They are recorded by localstack/e2e, which the reactor runs before this module:
                      ./spiderling test                              (everything, as CI runs it)
                      ./mvnw -B test -pl least-privilege -am         (the e2e suites, the stack, this check)
                    To check against an earlier run's recordings instead:
                      -D%s=localstack/e2e/target/recorded-calls/<build>""".formatted(
                    directory == null ? "" : " (none in " + directory.toAbsolutePath().normalize() + ")", PROPERTY));
        }
        Map<String, Long> merged = new TreeMap<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".tsv")).sorted().toList()) {
                for (String line : Files.readAllLines(file)) {
                    int last = line.lastIndexOf('\t');
                    if (last > 0) {
                        merged.merge(line.substring(0, last), Long.parseLong(line.substring(last + 1)), Long::sum);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Call> calls = new ArrayList<>();
        merged.forEach((key, count) -> {
            String[] parts = key.split("\t", 3);
            calls.add(new Call(parts[0], parts[1], parts[2], count));
        });
        if (calls.stream().noneMatch(Call::byFunction)) {
            throw new AssertionError("The end-to-end suites ran but recorded no function's call in " + directory
                    + ": is the call recorder on (localstack/e2e's spiderling.record-calls)?");
        }
        return new RecordedCalls(directory, List.copyOf(calls));
    }
}
