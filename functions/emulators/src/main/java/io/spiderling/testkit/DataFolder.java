package io.spiderling.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;

/**
 * The folder a persistent local stack keeps its data in, locked for as long as this object is open: one subfolder
 * per emulator, and room for the runner's own files ({@link #file}).
 *
 * <p>The lock is an OS file lock on {@code lock} ({@link FileChannel#tryLock}), which the OS drops when the process
 * dies, even by SIGKILL; the file also records the holder's pid, for the message a second process gets. Holding the
 * lock is what lets a restarted stack treat every message that was in flight, and every fetch job the frontier had
 * released, as abandoned: no other process can still be working on them.
 */
public final class DataFolder implements AutoCloseable {

    private static final String LOCK_FILE = "lock";
    /** Written once the folder held a stack, so a later start knows it resumes. */
    private static final String USED_MARKER = "stack-created";

    private final Path root;
    private final FileChannel channel;
    private final FileLock lock;
    private final boolean usedBefore;

    private DataFolder(Path root, FileChannel channel, FileLock lock, boolean usedBefore) {
        this.root = root;
        this.channel = channel;
        this.lock = lock;
        this.usedBefore = usedBefore;
    }

    /**
     * Creates the folder if needed and locks it.
     *
     * @throws DataFolderInUseException at once when another process (or another {@code DataFolder} of this JVM)
     *     holds it
     * @throws UncheckedIOException when the folder cannot be created or the lock file written
     */
    public static DataFolder lock(Path folder) {
        Path root = folder.toAbsolutePath().normalize();
        FileChannel channel = null;
        try {
            Files.createDirectories(root);
            channel = FileChannel.open(root.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException heldHere) {
                lock = null;
            }
            if (lock == null) {
                OptionalLong holder = holder(channel);
                channel.close();
                throw new DataFolderInUseException(root, holder);
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)), 0);
            channel.force(false);
            boolean usedBefore = Files.exists(root.resolve(USED_MARKER));
            return new DataFolder(root, channel, lock, usedBefore);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("could not lock the data folder " + root, e);
        }
    }

    private static OptionalLong holder(FileChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(64);
        channel.read(buffer, 0);
        String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8).strip();
        try {
            return text.isEmpty() ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(text));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    public Path root() {
        return root;
    }

    /** A subfolder of the data folder, created if needed: one per emulator. */
    public Path folder(String name) {
        Path folder = root.resolve(name);
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new UncheckedIOException("could not create " + folder, e);
        }
        return folder;
    }

    /** A file of the runner's own in the data folder (not created). */
    public Path file(String name) {
        return root.resolve(name);
    }

    /** Whether a stack was started on this folder before this lock was taken: a start on it resumes. */
    public boolean usedBefore() {
        return usedBefore;
    }

    /** Records that a stack now lives here; {@link #usedBefore} says so from the next lock on. */
    void markUsed() {
        try {
            if (!Files.exists(root.resolve(USED_MARKER))) {
                Files.writeString(root.resolve(USED_MARKER), java.time.Instant.now() + "\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not write to the data folder " + root, e);
        }
    }

    /** Releases the lock. */
    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            // The channel's close below releases it anyway.
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // Nothing more to release.
        }
    }

    @Override
    public String toString() {
        return "DataFolder[" + root + "]";
    }
}
