package io.spiderling.local.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** One in-process run of the CLI: its exit code and what it printed on each stream. */
record CliRun(int code, String out, String err) {

    static CliRun withStdin(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SpiderlingCli.execute(args, new SpiderlingCli.Io(
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static CliRun of(String... args) {
        return withStdin("", args);
    }

    @Override
    public String toString() {
        return "exit " + code + "\n--- out:\n" + out + "--- err:\n" + err;
    }
}
