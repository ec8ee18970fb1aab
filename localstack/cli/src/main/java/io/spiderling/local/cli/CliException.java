package io.spiderling.local.cli;

/** A failure the user can act on: its message is printed as it is, without a stack trace, and the run exits with {@link #exitCode}. */
public final class CliException extends RuntimeException {

    private final ExitCode exitCode;

    public CliException(ExitCode exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public CliException(ExitCode exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public ExitCode exitCode() {
        return exitCode;
    }
}
