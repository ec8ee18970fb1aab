package io.spiderling.core.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GzipDeflateDecoderTest {

    private static final int MIB = 1024 * 1024;
    /** Some HTML-like text, long enough for several reads and to compress into several deflate blocks. */
    private static final byte[] PAGE = page();
    /** 50 MiB of zeros, gzip-compressed to about 50 KB: a small decompression bomb. */
    private static final byte[] BOMB = gzip(new byte[MIB], 50);

    @ParameterizedTest(name = "{0} in chunks of {1}")
    @CsvSource({
            "gzip, 1", "gzip, 2", "gzip, 7", "gzip, 1000", "gzip, 1000000",
            "zlib, 1", "zlib, 2", "zlib, 7", "zlib, 1000", "zlib, 1000000",
            "raw, 1", "raw, 2", "raw, 7", "raw, 1000", "raw, 1000000",
    })
    void read_whenFedInChunksOfAnySize_decodesTheContent(String format, int chunkSize) throws Exception {
        byte[] wire = switch (format) {
            case "gzip" -> gzip(PAGE, 1);
            case "zlib" -> deflate(PAGE, false);
            default -> deflate(PAGE, true);
        };
        GzipDeflateDecoder decoder = format.equals("gzip") ? GzipDeflateDecoder.gzip() : GzipDeflateDecoder.deflate();

        assertArrayEquals(PAGE, decodeAll(decoder, wire, chunkSize, 4096));
        assertTrue(decoder.finished());
        assertEquals(wire.length, decoder.rawBytesConsumed());
    }

    @Test
    void read_whenGzipHeaderHasEveryOptionalField_skipsThem() throws Exception {
        int flags = 0x02 | 0x04 | 0x08 | 0x10; // FHCRC, FEXTRA, FNAME, FCOMMENT
        byte[] wire = gzipMember(PAGE, flags, new byte[] {'A', 'B', 3, 0, 1, 2, 3}, "index.html", "a comment");

        for (int chunkSize : new int[] {1, 5, wire.length}) {
            assertArrayEquals(PAGE, decodeAll(GzipDeflateDecoder.gzip(), wire, chunkSize, 100));
        }
    }

    @Test
    void read_whenGzipExtraFieldIsEmpty_skipsIt() throws Exception {
        byte[] wire = gzipMember(PAGE, 0x04, new byte[0], null, null);

        assertArrayEquals(PAGE, decodeAll(GzipDeflateDecoder.gzip(), wire, 3, 100));
    }

    @Test
    void read_whenGzipMembersAreConcatenated_decodesThemInOrder() throws Exception {
        byte[] hello = "hello, ".getBytes(StandardCharsets.US_ASCII);
        byte[] world = "world".getBytes(StandardCharsets.US_ASCII);
        byte[] wire = concat(gzip(hello, 1), gzip(world, 1));
        GzipDeflateDecoder decoder = GzipDeflateDecoder.gzip();

        assertEquals("hello, world", new String(decodeAll(decoder, wire, 3, 100), StandardCharsets.US_ASCII));
        assertTrue(decoder.finished());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gzip", "zlib", "raw"})
    void read_whenBytesFollowTheEnd_ignoresThem(String format) throws Exception {
        byte[] trailing = {0, 0, 0x1f, 'x', 'y'};
        byte[] wire = switch (format) {
            case "gzip" -> concat(gzip(PAGE, 1), trailing);
            case "zlib" -> concat(deflate(PAGE, false), trailing);
            default -> concat(deflate(PAGE, true), trailing);
        };
        GzipDeflateDecoder decoder = format.equals("gzip") ? GzipDeflateDecoder.gzip() : GzipDeflateDecoder.deflate();

        assertArrayEquals(PAGE, decodeAll(decoder, wire, 1000, 100));
        assertTrue(decoder.finished());
        assertTrue(decoder.needsInput());
    }

    @Test
    void finished_whenTheStreamIsCutShort_isFalse() throws Exception {
        byte[] wire = gzip(PAGE, 1);
        GzipDeflateDecoder decoder = GzipDeflateDecoder.gzip();

        byte[] decoded = decodeAll(decoder, Arrays.copyOf(wire, wire.length - 4), 1000, 100); // no size in trailer

        assertArrayEquals(PAGE, decoded);
        assertFalse(decoder.finished());
    }

    @Test
    void finished_whenASecondMemberIsCutShort_isFalse() throws Exception {
        byte[] wire = concat(gzip(PAGE, 1), new byte[] {0x1f, (byte) 0x8b});
        GzipDeflateDecoder decoder = GzipDeflateDecoder.gzip();

        decodeAll(decoder, wire, 1000, 100);

        assertFalse(decoder.finished());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "not gzip,            3c68746d6c3e",
            "not deflate,         1f8b07000000000000ff",
            "reserved flags,      1f8b08200000000000ff",
    })
    void read_whenGzipHeaderIsWrong_throws(String problem, String hex) {
        assertThrows(ZipException.class, () -> decodeAll(GzipDeflateDecoder.gzip(), hex(hex), 100, 100), problem);
    }

    @ParameterizedTest(name = "byte {0} from the end")
    @ValueSource(ints = {8, 5, 4, 1}) // two bytes of the CRC-32, two of the size
    void read_whenGzipTrailerDoesNotMatch_throws(int fromEnd) {
        byte[] wire = gzip(PAGE, 1);
        wire[wire.length - fromEnd] ^= 1;

        assertThrows(ZipException.class, () -> decodeAll(GzipDeflateDecoder.gzip(), wire, 1000, 100));
    }

    @Test
    void read_whenZlibChecksumDoesNotMatch_throws() {
        byte[] wire = deflate(PAGE, false);
        wire[wire.length - 1] ^= 1;

        assertThrows(ZipException.class, () -> decodeAll(GzipDeflateDecoder.deflate(), wire, 1000, 100));
    }

    @Test
    void read_whenZlibAsksForAPresetDictionary_throws() {
        byte[] wire = {0x78, (byte) 0xbb, 0, 0, 0, 1}; // FDICT set, check bits valid

        assertThrows(ZipException.class, () -> decodeAll(GzipDeflateDecoder.deflate(), wire, 100, 100));
    }

    @Test
    void read_whenDeflateDataIsInvalid_throws() {
        byte[] wire = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}; // block type 3 does not exist

        assertThrows(ZipException.class, () -> decodeAll(GzipDeflateDecoder.deflate(), wire, 100, 100));
    }

    @Test
    void read_whenOutputRangeIsEmpty_returnsZero() throws Exception {
        GzipDeflateDecoder decoder = GzipDeflateDecoder.gzip();
        decoder.feed(gzip(PAGE, 1));

        assertEquals(0, decoder.read(new byte[10], 10, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> decoder.read(new byte[10], 5, 6));
    }

    @Test
    void feed_whenThePreviousChunkIsUnread_throws() {
        GzipDeflateDecoder decoder = GzipDeflateDecoder.gzip();
        decoder.feed(gzip(PAGE, 1));

        assertThrows(IllegalStateException.class, () -> decoder.feed(new byte[1]));
    }

    @Test
    void decodeInto_whenOrdinaryPage_keepsItAllAndCountsEveryWireByte() throws Exception {
        byte[] wire = gzip(PAGE, 1);
        BoundedBody body = BoundedBody.create(BodyLimits.defaults());

        try (GzipDeflateDecoder decoder = GzipDeflateDecoder.gzip()) {
            for (int start = 0; start < wire.length; start += 1000) {
                assertTrue(decoder.decodeInto(chunk(wire, start, 1000), body));
            }
            assertTrue(decoder.finished());
        }

        assertArrayEquals(PAGE, body.toByteArray());
        assertEquals(wire.length, body.rawBytes());
        assertFalse(body.truncated());
        assertFalse(body.ratioExceeded());
    }

    @Test
    void decodeInto_whenGzipBomb_stopsOnTheRatioAfterAFewKilobytes() throws Exception {
        BoundedBody body = BoundedBody.create(BodyLimits.defaults());
        int chunks = 0;

        try (GzipDeflateDecoder decoder = GzipDeflateDecoder.gzip()) {
            for (int start = 0; start < BOMB.length; start += 8192) {
                chunks++;
                if (!decoder.decodeInto(chunk(BOMB, start, 8192), body)) {
                    break;
                }
            }
            assertFalse(decoder.finished());
        }

        assertTrue(body.ratioExceeded());
        assertFalse(body.truncated());
        assertEquals(1, chunks, "stopped within the first wire chunk");
        assertTrue(body.rawBytes() < 4096, "wire bytes read: " + body.rawBytes());
        assertTrue(body.decodedBytes() <= MIB + 16 * 1024, "decoded: " + body.decodedBytes());
        assertTrue(body.capacity() <= BodyLimits.DEFAULT_MAX_BYTES);
    }

    @Test
    void decodeInto_whenGzipBombAndNoRatioLimit_truncatesAtMaxBytesWithoutGrowingPastIt() throws Exception {
        BoundedBody body = BoundedBody.create(new BodyLimits(BodyLimits.DEFAULT_MAX_BYTES, Integer.MAX_VALUE, 0));

        try (GzipDeflateDecoder decoder = GzipDeflateDecoder.gzip()) {
            for (int start = 0; start < BOMB.length; start += 8192) {
                if (!decoder.decodeInto(chunk(BOMB, start, 8192), body)) {
                    break;
                }
            }
            assertFalse(decoder.finished());
        }

        assertTrue(body.truncated());
        assertFalse(body.ratioExceeded());
        assertEquals(BodyLimits.DEFAULT_MAX_BYTES, body.size());
        assertEquals(BodyLimits.DEFAULT_MAX_BYTES, body.capacity());
        assertTrue(body.decodedBytes() <= BodyLimits.DEFAULT_MAX_BYTES + 16 * 1024, "decoded: " + body.decodedBytes());
        assertTrue(body.rawBytes() < BOMB.length / 2, "wire bytes read: " + body.rawBytes());
    }

    @Test
    void decodeInto_whenBodyAlreadyStopped_readsNothing() throws Exception {
        BoundedBody body = BoundedBody.create(new BodyLimits(1, Integer.MAX_VALUE, 0));
        body.accept(new byte[2], 2);

        try (GzipDeflateDecoder decoder = GzipDeflateDecoder.gzip()) {
            assertFalse(decoder.decodeInto(ByteBuffer.wrap(gzip(PAGE, 1)), body));
            assertEquals(0, decoder.rawBytesConsumed());
        }
    }

    /** Feeds {@code wire} in chunks and reads each to the end with an output array of {@code readSize}. */
    private static byte[] decodeAll(GzipDeflateDecoder decoder, byte[] wire, int chunkSize, int readSize)
            throws ZipException {
        ByteArrayOutputStream decoded = new ByteArrayOutputStream();
        byte[] out = new byte[readSize];
        for (int start = 0; start < wire.length; start += chunkSize) {
            decoder.feed(chunk(wire, start, chunkSize));
            for (int n; (n = decoder.read(out, 0, out.length)) > 0; ) {
                decoded.write(out, 0, n);
            }
            assertTrue(decoder.needsInput());
        }
        return decoded.toByteArray();
    }

    private static ByteBuffer chunk(byte[] wire, int start, int size) {
        return ByteBuffer.wrap(wire, start, Math.min(size, wire.length - start)).slice();
    }

    private static byte[] gzip(byte[] content, int times) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            for (int i = 0; i < times; i++) {
                out.write(content);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static byte[] deflate(byte[] content, boolean raw) {
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, raw);
        deflater.setInput(content);
        deflater.finish();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        while (!deflater.finished()) {
            bytes.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        return bytes.toByteArray();
    }

    /** A gzip member with the optional header fields GZIPOutputStream never writes. */
    private static byte[] gzipMember(byte[] content, int flags, byte[] extra, String name, String comment) {
        ByteArrayOutputStream member = new ByteArrayOutputStream();
        member.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, (byte) flags, 1, 2, 3, 4, 0, 3});
        if ((flags & 0x04) != 0) {
            member.write(extra.length & 0xff);
            member.write(extra.length >>> 8);
            member.writeBytes(extra);
        }
        if (name != null) {
            member.writeBytes((name + "\0").getBytes(StandardCharsets.ISO_8859_1));
        }
        if (comment != null) {
            member.writeBytes((comment + "\0").getBytes(StandardCharsets.ISO_8859_1));
        }
        if ((flags & 0x02) != 0) {
            member.writeBytes(new byte[] {0x12, 0x34}); // not checked by the decoder
        }
        member.writeBytes(deflate(content, true));
        CRC32 crc = new CRC32();
        crc.update(content);
        writeLittleEndian(member, (int) crc.getValue());
        writeLittleEndian(member, content.length);
        return member.toByteArray();
    }

    private static void writeLittleEndian(ByteArrayOutputStream out, int value) {
        for (int i = 0; i < 4; i++) {
            out.write(value >>> (8 * i));
        }
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    private static byte[] hex(String hex) {
        byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return bytes;
    }

    private static byte[] page() {
        StringBuilder html = new StringBuilder("<!doctype html><title>Spiderling</title>\n");
        for (int i = 0; i < 5000; i++) {
            html.append("<p id=\"p").append(i).append("\">Paragraph ").append(i * 7919 % 10007)
                    .append(" of a page that compresses well but not absurdly.</p>\n");
        }
        return html.toString().getBytes(StandardCharsets.UTF_8);
    }
}
