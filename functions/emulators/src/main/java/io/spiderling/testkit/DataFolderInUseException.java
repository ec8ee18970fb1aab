package io.spiderling.testkit;

import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Another process (or this one) already runs a stack on the data folder. Its message names the folder and, when the
 * lock file says, the process that holds it, so a command line can print it as it is.
 */
public final class DataFolderInUseException extends RuntimeException {

    private final Path folder;
    private final OptionalLong holderPid;

    public DataFolderInUseException(Path folder, OptionalLong holderPid) {
        super("the data folder " + folder + " is in use by "
                + (holderPid.isPresent() ? "process " + holderPid.getAsLong() : "another process")
                + "; stop it, or choose another folder");
        this.folder = folder;
        this.holderPid = holderPid;
    }

    public Path folder() {
        return folder;
    }

    /** The process that holds the lock, as it recorded itself in the lock file. */
    public OptionalLong holderPid() {
        return holderPid;
    }
}
