package io.spiderling.local.cli;

/**
 * The CLI's exit codes, documented in docs/cli.md. A batch whose URLs all ended exits 0 whatever their states: a
 * failed fetch is a result, written to {@code results.jsonl}, not an error of the run.
 */
public enum ExitCode {
    /** The command did what was asked: for {@code fetch}, every URL of the batch ended. */
    OK(0),
    /** Something unexpected went wrong (a bug, or an answer the CLI does not understand); the message says what. */
    INTERNAL(1),
    /** A mistake in the command: an unknown option, a missing or empty input file, an invalid value. */
    USAGE(2),
    /** The environment refused: the port is in use, the data folder is held by another process, the endpoint is unreachable. */
    UNAVAILABLE(3),
    /** The API refused the credentials: a missing or wrong token, or a SigV4 signature it does not accept. */
    AUTH(4),
    /** The batch did not finish within {@code --timeout}; it goes on, and running the same command again resumes it. */
    TIMEOUT(5),
    /** The batch or URL asked for does not exist (or belongs to another client). */
    NOT_FOUND(6),
    /** Interrupted by Ctrl-C; the batch goes on in a deployment, and a local run resumes it when run again. */
    INTERRUPTED(130);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
