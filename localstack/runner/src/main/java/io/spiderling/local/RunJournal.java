package io.spiderling.local;

import io.spiderling.core.content.Hashing;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

/**
 * The runs in progress on a data folder: for each input (its fingerprint, the sha256 of its URL list), the
 * {@code Idempotency-Key} its batch was submitted with. Running the same input again after a crash submits with the
 * same key and so gets the same batch back, and waits on it; once a run has seen its batch finish, the input is
 * forgotten, and the next run of it submits a new batch (whose still-fresh URLs end as skipped, not fetched again).
 *
 * <p>One small properties file, rewritten whole through a temporary file and an atomic move, so a crash leaves the
 * old or the new journal, never half of one. The data folder's lock keeps other processes out.
 */
public final class RunJournal {

    /**
     * One run of an input.
     *
     * @param idempotencyKey the key to submit its batch with
     * @param resumed whether an earlier run of the same input did not finish: the batch it submitted is resumed
     */
    public record Run(String fingerprint, String idempotencyKey, boolean resumed) {}

    /** The journal's file in a data folder. */
    public static final String FILE = "runs.properties";

    private final Path file;

    private RunJournal(Path file) {
        this.file = file;
    }

    /** The journal kept in {@code file}, which need not exist yet. */
    public static RunJournal open(Path file) {
        return new RunJournal(file);
    }

    /** The sha256 (hex) of the URLs, one per line, in their order. */
    public static String fingerprint(List<String> urls) {
        return Hashing.sha256Hex(String.join("\n", urls));
    }

    /**
     * Starts a run of the input: the key of its unfinished earlier run when there is one, else a new key, recorded
     * before the batch is submitted (so a crash right after submitting still finds it).
     */
    public synchronized Run begin(List<String> urls) {
        String fingerprint = fingerprint(urls);
        Properties runs = read();
        String key = runs.getProperty(fingerprint);
        if (key != null) {
            return new Run(fingerprint, key, true);
        }
        key = "run-" + UUID.randomUUID();
        runs.setProperty(fingerprint, key);
        write(runs);
        return new Run(fingerprint, key, false);
    }

    /** The run's batch finished: the next run of the same input submits a new batch. */
    public synchronized void finished(Run run) {
        Properties runs = read();
        if (run.idempotencyKey().equals(runs.getProperty(run.fingerprint()))) {
            runs.remove(run.fingerprint());
            write(runs);
        }
    }

    private Properties read() {
        Properties runs = new Properties();
        if (Files.exists(file)) {
            try (Reader reader = Files.newBufferedReader(file)) {
                runs.load(reader);
            } catch (IOException e) {
                throw new UncheckedIOException("could not read the run journal " + file, e);
            }
        }
        return runs;
    }

    private void write(Properties runs) {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            try (Writer writer = Files.newBufferedWriter(temporary)) {
                runs.store(writer, "input sha256 = Idempotency-Key of its run in progress");
            }
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the run journal " + file, e);
        }
    }
}
