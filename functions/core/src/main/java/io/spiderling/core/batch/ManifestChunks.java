package io.spiderling.core.batch;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Cuts an uploaded manifest into byte ranges that can be planned one at a time, each by a separate invocation, and
 * reads the lines of one range from a stream. A line belongs to the chunk in which it starts, so every line is read by
 * exactly one chunk whatever the cut points, and a chunk only needs the bytes from its start to the end of its last
 * line. Memory is bounded by {@link #MAX_LINE_BYTES}: a longer line is reported as too long, and its excess bytes are
 * skipped without being kept.
 */
public final class ManifestChunks {

    /** Longer lines cannot hold a valid URL (2,048 characters) even as JSON with escapes. */
    public static final int MAX_LINE_BYTES = 16 * 1024;

    private ManifestChunks() {}

    /**
     * The bytes {@code [start, end)} of the manifest whose line starts this chunk reads.
     *
     * @param index from 0
     */
    public record Chunk(int index, long start, long end) {

        /** Where to start reading: one byte early, to learn whether a line starts exactly at {@code start}. */
        public long readFrom() {
            return start == 0 ? 0 : start - 1;
        }
    }

    /** @param position the line's first byte in the manifest */
    public record Line(long position, String text, boolean tooLong) {}

    public static int chunkCount(long size, long chunkBytes) {
        if (chunkBytes <= 0) {
            throw new IllegalArgumentException("chunkBytes must be positive: " + chunkBytes);
        }
        long count = size == 0 ? 1 : (size + chunkBytes - 1) / chunkBytes;
        if (count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("too many chunks: " + count);
        }
        return (int) count;
    }

    public static Chunk chunk(int index, long size, long chunkBytes) {
        int count = chunkCount(size, chunkBytes);
        if (index < 0 || index >= count) {
            throw new IllegalArgumentException("chunk " + index + " of " + count);
        }
        return new Chunk(index, index * chunkBytes, Math.min(size, (index + 1) * chunkBytes));
    }

    /** Reads one chunk's lines from a stream that starts at {@link Chunk#readFrom()}. The caller closes the stream. */
    public static Reader reader(InputStream in, Chunk chunk) {
        return new Reader(in, chunk);
    }

    /** Reads lines, one at a time, holding at most one line. */
    public static final class Reader {
        private final InputStream in;
        private final Chunk chunk;
        private long offset;
        private boolean started;
        private boolean exhausted;
        private final byte[] line = new byte[MAX_LINE_BYTES];

        private Reader(InputStream in, Chunk chunk) {
            this.in = new BufferedInputStream(in, 64 * 1024);
            this.chunk = chunk;
            this.offset = chunk.readFrom();
        }

        /** The next line that starts in the chunk (blank ones included), or null when there is none. */
        public Line next() throws IOException {
            if (!started) {
                started = true;
                skipToChunkStart();
            }
            if (exhausted || offset >= chunk.end()) {
                return null;
            }
            long position = offset;
            int length = 0;
            boolean tooLong = false;
            boolean any = false;
            int b;
            while ((b = in.read()) != -1) {
                offset++;
                any = true;
                if (b == '\n') {
                    break;
                }
                if (length < line.length) {
                    line[length++] = (byte) b;
                } else {
                    tooLong = true;
                }
            }
            if (b == -1) {
                exhausted = true;
                if (!any) {
                    return null;
                }
            }
            if (length > 0 && line[length - 1] == '\r' && !tooLong) {
                length--;
            }
            int from = 0;
            if (position == 0 && length >= 3 && line[0] == (byte) 0xEF && line[1] == (byte) 0xBB
                    && line[2] == (byte) 0xBF) {
                from = 3; // a UTF-8 byte order mark
            }
            return new Line(position, new String(Arrays.copyOfRange(line, from, length), StandardCharsets.UTF_8),
                    tooLong);
        }

        /**
         * A chunk after the first starts at the line that begins at or after its first byte: the byte before tells
         * whether one begins exactly there; otherwise the rest of the previous chunk's last line is skipped.
         */
        private void skipToChunkStart() throws IOException {
            if (chunk.start() == 0) {
                return;
            }
            int b = in.read();
            if (b == -1) {
                exhausted = true;
                return;
            }
            offset++;
            while (b != '\n') {
                b = in.read();
                if (b == -1) {
                    exhausted = true;
                    return;
                }
                offset++;
            }
        }
    }
}
