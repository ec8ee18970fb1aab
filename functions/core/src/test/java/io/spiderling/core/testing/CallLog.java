package io.spiderling.core.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * The writes made to the fakes that share this log, in call order, as {@code "Port.method detail"}. Reads are not
 * recorded: a stage's ordering promises are about what it writes.
 */
public final class CallLog {

    private final List<String> entries = new ArrayList<>();

    void record(String port, String method, Object detail) {
        entries.add(port + "." + method + " " + detail);
    }

    public List<String> entries() {
        return List.copyOf(entries);
    }

    /** Forgets the writes made so far, typically those of a test's setup. */
    public void clear() {
        entries.clear();
    }
}
