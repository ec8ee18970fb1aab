package io.spiderling.local.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code ./spiderling fetch|serve|status|get|cancel|keys}: the client of Spiderling, on the embedded stack it starts itself
 * or against a deployment's API ({@code --endpoint}). Exit codes: {@link ExitCode}, documented in docs/cli.md.
 */
@Command(name = "spiderling", mixinStandardHelpOptions = true, versionProvider = SpiderlingCli.Version.class,
        description = "Fetch URLs politely, on the embedded stack or a deployment.",
        subcommands = {FetchCommand.class, ServeCommand.class, StatusCommand.class, GetCommand.class,
                CancelCommand.class, KeysCommand.class, CommandLine.HelpCommand.class},
        footerHeading = "%nExit codes:%n",
        footer = {"  0    done (fetch: every URL ended, whatever its state; see results.jsonl)",
                "  1    internal error", "  2    usage: bad option, missing or empty input file",
                "  3    unavailable: port in use, data folder in use, endpoint unreachable",
                "  4    the API refused the credentials", "  5    --timeout passed before the batch finished"
                        + " (it goes on; run the same command again to resume)",
                "  6    no such batch or URL", "  130  interrupted"})
public final class SpiderlingCli implements Runnable {

    /** Where commands read and print; the process's own streams, or a test's. */
    record Io(InputStream in, PrintStream out, PrintStream err) {}

    private final Io io;

    SpiderlingCli(Io io) {
        this.io = io;
    }

    Io io() {
        return io;
    }

    @Override
    public void run() {
        // No subcommand: say what there is.
        new CommandLine(this).usage(io.err());
    }

    public static void main(String[] args) {
        int code = execute(args, new Io(System.in, System.out, System.err));
        // The emulators leave non-daemon threads behind; the command is done either way.
        System.exit(code);
    }

    /** Runs one command line; returns its exit code. Nothing here calls System.exit, so tests run it in-process. */
    public static int execute(String[] args, Io io) {
        CommandLine cli = new CommandLine(new SpiderlingCli(io));
        cli.setOut(new PrintWriter(io.out(), true));
        cli.setErr(new PrintWriter(io.err(), true));
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setExecutionExceptionHandler((e, command, parsed) -> {
            if (e instanceof CliException c) {
                io.err().println("spiderling: " + c.getMessage());
                return c.exitCode().code();
            }
            io.err().println("spiderling: internal error: " + e);
            e.printStackTrace(io.err());
            return ExitCode.INTERNAL.code();
        });
        return cli.execute(args);
    }

    /** The version in the jar's manifest when there is one. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = SpiderlingCli.class.getPackage().getImplementationVersion();
            return new String[] {"spiderling " + (version == null ? "0.1.0-SNAPSHOT" : version)};
        }
    }
}
