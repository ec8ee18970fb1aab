package io.spiderling.core.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ManifestChunksTest {

    private static final String MANIFEST = "https://a.example/1\nhttps://b.example/22\r\n\n"
            + "https://c.example/333\nhttps://d.example/4444\nno-newline-at-end";

    /** Every line is read by exactly one chunk, at its true position, wherever the cuts fall. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 19, 20, 21, 22, 40, 1000})
    void reader_whenManifestCutAnywhere_readsEveryLineOnceAtItsPosition(int chunkBytes) throws IOException {
        byte[] bytes = MANIFEST.getBytes(StandardCharsets.UTF_8);
        List<ManifestChunks.Line> lines = new ArrayList<>();
        int chunks = ManifestChunks.chunkCount(bytes.length, chunkBytes);
        for (int i = 0; i < chunks; i++) {
            ManifestChunks.Chunk chunk = ManifestChunks.chunk(i, bytes.length, chunkBytes);
            lines.addAll(readAll(bytes, chunk));
        }
        assertEquals(List.of(
                new ManifestChunks.Line(0, "https://a.example/1", false),
                new ManifestChunks.Line(20, "https://b.example/22", false),
                new ManifestChunks.Line(42, "", false),
                new ManifestChunks.Line(43, "https://c.example/333", false),
                new ManifestChunks.Line(65, "https://d.example/4444", false),
                new ManifestChunks.Line(88, "no-newline-at-end", false)), lines);
    }

    @ParameterizedTest
    @CsvSource({
        "0, 10, 1",
        "1, 10, 1",
        "10, 10, 1",
        "11, 10, 2",
        "1048576, 1048576, 1",
        "52428800, 1048576, 50",
    })
    void chunkCount_whenSizeAndChunkBytes_coversTheWholeManifest(long size, long chunkBytes, int expected) {
        assertEquals(expected, ManifestChunks.chunkCount(size, chunkBytes));
    }

    @Test
    void chunk_whenIndexOutOfRange_throws() {
        assertThrows(IllegalArgumentException.class, () -> ManifestChunks.chunk(2, 20, 10));
        assertThrows(IllegalArgumentException.class, () -> ManifestChunks.chunk(-1, 20, 10));
    }

    @Test
    void reader_whenLineLongerThanTheCap_flagsItKeepsTheCapAndGoesOn() throws IOException {
        String longLine = "x".repeat(ManifestChunks.MAX_LINE_BYTES + 500);
        byte[] bytes = (longLine + "\nhttps://a.example/\n").getBytes(StandardCharsets.UTF_8);
        List<ManifestChunks.Line> lines = readAll(bytes, ManifestChunks.chunk(0, bytes.length, bytes.length));

        assertEquals(2, lines.size());
        assertTrue(lines.get(0).tooLong());
        assertEquals(ManifestChunks.MAX_LINE_BYTES, lines.get(0).text().length());
        assertEquals(new ManifestChunks.Line(longLine.length() + 1, "https://a.example/", false), lines.get(1));
    }

    @Test
    void reader_whenManifestStartsWithAByteOrderMark_dropsIt() throws IOException {
        byte[] bytes = "\uFEFFhttps://a.example/\n".getBytes(StandardCharsets.UTF_8);
        assertEquals(List.of(new ManifestChunks.Line(0, "https://a.example/", false)),
                readAll(bytes, ManifestChunks.chunk(0, bytes.length, 1024)));
    }

    @Test
    void reader_whenManifestEmpty_readsNothing() throws IOException {
        assertEquals(List.of(), readAll(new byte[0], ManifestChunks.chunk(0, 0, 1024)));
    }

    private static List<ManifestChunks.Line> readAll(byte[] bytes, ManifestChunks.Chunk chunk) throws IOException {
        List<ManifestChunks.Line> lines = new ArrayList<>();
        try (InputStream in = new ByteArrayInputStream(bytes, (int) chunk.readFrom(),
                bytes.length - (int) chunk.readFrom())) {
            ManifestChunks.Reader reader = ManifestChunks.reader(in, chunk);
            for (ManifestChunks.Line line = reader.next(); line != null; line = reader.next()) {
                lines.add(line);
            }
        }
        return lines;
    }
}
