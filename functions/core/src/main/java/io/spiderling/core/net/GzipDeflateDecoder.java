package io.spiderling.core.net;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.Checksum;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * Decodes a {@code Content-Encoding: gzip} or {@code deflate} body as it arrives: wire chunks are pushed in, decoded
 * bytes are pulled out into the caller's array, so memory stays at the caller's buffer plus the inflater's 32 KiB
 * window however large the body inflates. {@link #decodeInto(ByteBuffer, BoundedBody)} joins it to a
 * {@link BoundedBody}, which is how a decompression bomb is cut after a few kilobytes of wire.
 *
 * <p>Unlike {@link java.util.zip.GZIPInputStream}, nothing blocks and nothing is read ahead: an event-loop HTTP
 * client can feed it each chunk as it comes and stop the request the moment the body is full. The wrappers are parsed
 * here and the compressed data is left to a raw {@link Inflater}:
 * <ul>
 *   <li>gzip (RFC 1952): the optional header fields are skipped (the header CRC is not checked), the CRC-32 and size
 *       in each trailer are checked, concatenated members are decoded one after the other, and bytes after a member
 *       that do not start another are ignored, as {@code GZIPInputStream} and browsers do;
 *   <li>deflate: RFC 9110 says zlib (RFC 1950), whose Adler-32 trailer is checked, but some servers send raw deflate
 *       (RFC 1951), so, as browsers do, a stream whose first two bytes are not a zlib header is decoded as raw deflate.
 *       Bytes after the end are ignored.
 * </ul>
 *
 * <p>Usage: {@link #feed} a wire chunk, call {@link #read} until it returns 0, feed the next. At the end of the body,
 * {@link #finished()} tells whether the compressed stream was complete. {@link #close()} frees the inflater's native
 * memory. One instance per response; not thread-safe.
 */
public final class GzipDeflateDecoder implements AutoCloseable {

    private static final int SCRATCH_SIZE = 16 * 1024;
    private static final int GZIP_ID1 = 0x1f;
    private static final int GZIP_ID2 = 0x8b;
    private static final int METHOD_DEFLATE = 8;
    private static final int FHCRC = 0x02;
    private static final int FEXTRA = 0x04;
    private static final int FNAME = 0x08;
    private static final int FCOMMENT = 0x10;
    private static final int FRESERVED = 0xe0;
    private static final int ZLIB_FDICT = 0x20;

    private enum Step {
        // gzip member header
        ID1, ID2, METHOD, FLAGS, TIME_EXTRA_FLAGS_OS, EXTRA_LENGTH, EXTRA, NAME, COMMENT, HEADER_CRC,
        // deflate: zlib or raw
        DETECT,
        // both
        DATA, TRAILER, DONE
    }

    private final boolean gzip;
    private final Inflater inflater = new Inflater(true);
    private ByteBuffer input = ByteBuffer.allocate(0);
    private Step step;
    /** A deflate stream's first byte, when it arrived alone and the zlib check needs two. */
    private int heldByte = -1;
    private Checksum checksum;
    private long checksumLength;
    private int flags;
    /** Bytes left in the current fixed-length field, or the field's value as it is read (little-endian). */
    private int remaining;
    private long fieldValue;
    private int fieldBytes;
    private boolean anotherMember;
    private long rawFed;
    private byte[] scratch;

    private GzipDeflateDecoder(boolean gzip) {
        this.gzip = gzip;
        this.step = gzip ? Step.ID1 : Step.DETECT;
    }

    /** A decoder for {@code Content-Encoding: gzip} (and {@code x-gzip}). */
    public static GzipDeflateDecoder gzip() {
        return new GzipDeflateDecoder(true);
    }

    /** A decoder for {@code Content-Encoding: deflate}, zlib-wrapped or raw. */
    public static GzipDeflateDecoder deflate() {
        return new GzipDeflateDecoder(false);
    }

    /** Whether every byte fed so far has been taken (or, after the end, ignored), so the next chunk may be fed. */
    public boolean needsInput() {
        return !input.hasRemaining();
    }

    /** {@link #feed(ByteBuffer)} with the whole array. */
    public void feed(byte[] raw) {
        feed(ByteBuffer.wrap(raw));
    }

    /**
     * Hands over the next wire chunk. The decoder reads it in place: do not change its content until
     * {@link #needsInput()}. The buffer's position advances as it is read.
     *
     * @throws IllegalStateException if the previous chunk has not been read to the end
     */
    public void feed(ByteBuffer raw) {
        if (!needsInput()) {
            throw new IllegalStateException("the previous chunk has not been read to the end");
        }
        rawFed += raw.remaining();
        if (heldByte >= 0 && raw.hasRemaining()) {
            ByteBuffer joined = ByteBuffer.allocate(1 + raw.remaining());
            joined.put((byte) heldByte).put(raw).flip();
            heldByte = -1;
            raw = joined;
        }
        input = raw;
        if (step == Step.DATA) {
            inflater.setInput(input);
        }
    }

    /**
     * Decodes into {@code out}.
     *
     * @return the number of bytes decoded, 1 or more; or 0 when the chunk fed is used up (feed the next) or the
     *     stream has ended
     * @throws ZipException if the wire bytes are not gzip or deflate, or a checksum does not match
     */
    public int read(byte[] out, int offset, int length) throws ZipException {
        Objects.checkFromIndexSize(offset, length, out.length);
        if (length == 0) {
            return 0;
        }
        while (true) {
            if (step == Step.DONE) {
                input.position(input.limit()); // whatever follows the end is ignored
                return 0;
            }
            if (step == Step.DATA) {
                int decoded = inflate(out, offset, length);
                if (decoded > 0 || step == Step.DATA) {
                    return decoded; // output, or the chunk is used up
                }
                continue; // the compressed data ended: on to the trailer
            }
            if (!input.hasRemaining()) {
                return 0;
            }
            if (step == Step.DETECT) {
                detect();
            } else {
                wrapperByte(input.get() & 0xff);
            }
        }
    }

    /** Whether the end of the compressed stream (the last trailer, for gzip) has been read. */
    public boolean finished() {
        return step == Step.DONE || (anotherMember && step == Step.ID1);
    }

    /** Wire bytes taken from the chunks fed so far: everything fed that is not still waiting to be read. */
    public long rawBytesConsumed() {
        return rawFed - input.remaining() - (heldByte >= 0 ? 1 : 0);
    }

    /**
     * Feeds {@code raw} and decodes all of it into {@code body}, reporting the wire bytes each decoded piece took.
     * Stops as soon as the body stops accepting, leaving the rest of the chunk unread.
     *
     * @return whether the body wants more: false means stop reading the response and close this decoder
     * @throws ZipException as {@link #read}
     */
    public boolean decodeInto(ByteBuffer raw, BoundedBody body) throws ZipException {
        if (!body.accepting()) {
            return false;
        }
        long reported = rawBytesConsumed();
        feed(raw);
        if (scratch == null) {
            scratch = new byte[SCRATCH_SIZE];
        }
        while (true) {
            int decoded = read(scratch, 0, scratch.length);
            long consumed = rawBytesConsumed();
            if (!body.accept(scratch, 0, decoded, consumed - reported) || decoded == 0) {
                return body.accepting();
            }
            reported = consumed;
        }
    }

    @Override
    public void close() {
        inflater.end();
    }

    private int inflate(byte[] out, int offset, int length) throws ZipException {
        int decoded;
        try {
            decoded = inflater.inflate(out, offset, length);
        } catch (DataFormatException e) {
            throw new ZipException("invalid deflate data: " + e.getMessage());
        }
        if (decoded > 0 && checksum != null) {
            checksum.update(out, offset, decoded);
            checksumLength += decoded;
        }
        if (decoded == 0 && inflater.finished()) {
            startField(Step.TRAILER, gzip ? 8 : checksum == null ? 0 : 4);
        } else if (decoded == 0 && inflater.needsDictionary()) {
            throw new ZipException("deflate data asks for a preset dictionary");
        }
        return decoded;
    }

    /** Decides between zlib and raw deflate from the first two bytes. */
    private void detect() throws ZipException {
        if (input.remaining() < 2) {
            heldByte = input.get() & 0xff; // joined to the next chunk by feed
            return;
        }
        int cmf = input.get(input.position()) & 0xff;
        int flg = input.get(input.position() + 1) & 0xff;
        boolean zlib = (cmf & 0x0f) == METHOD_DEFLATE && (cmf >>> 4) <= 7 && ((cmf << 8) | flg) % 31 == 0;
        if (zlib) {
            if ((flg & ZLIB_FDICT) != 0) {
                throw new ZipException("zlib stream asks for a preset dictionary");
            }
            input.position(input.position() + 2);
            checksum = new Adler32();
        }
        startData();
    }

    private void startData() {
        step = Step.DATA;
        inflater.reset();
        inflater.setInput(input);
        if (checksum != null) {
            checksum.reset();
        }
        checksumLength = 0;
    }

    private void startField(Step field, int length) throws ZipException {
        step = field;
        remaining = length;
        fieldValue = 0;
        fieldBytes = 0;
        if (length == 0) {
            fieldDone();
        }
    }

    /** One byte of a gzip header or trailer, or of a zlib trailer. */
    private void wrapperByte(int b) throws ZipException {
        switch (step) {
            case ID1 -> {
                if (b == GZIP_ID1) {
                    step = Step.ID2;
                } else {
                    notAnotherMember("not gzip data");
                }
            }
            case ID2 -> {
                if (b == GZIP_ID2) {
                    step = Step.METHOD;
                } else {
                    notAnotherMember("not gzip data");
                }
            }
            case METHOD -> {
                if (b != METHOD_DEFLATE) {
                    notAnotherMember("unsupported gzip compression method " + b);
                } else {
                    step = Step.FLAGS;
                }
            }
            case FLAGS -> {
                if ((b & FRESERVED) != 0) {
                    throw new ZipException("reserved gzip header flags set");
                }
                flags = b;
                startField(Step.TIME_EXTRA_FLAGS_OS, 6);
            }
            case NAME, COMMENT -> {
                if (b == 0) {
                    afterOptionalField();
                }
            }
            case TIME_EXTRA_FLAGS_OS, EXTRA_LENGTH, EXTRA, HEADER_CRC, TRAILER -> {
                fieldValue |= (long) b << (8 * Math.min(fieldBytes, 7));
                fieldBytes++;
                if (--remaining == 0) {
                    fieldDone();
                }
            }
            default -> throw new IllegalStateException("no wrapper byte expected in " + step);
        }
    }

    private void fieldDone() throws ZipException {
        switch (step) {
            case TIME_EXTRA_FLAGS_OS -> {
                if ((flags & FEXTRA) != 0) {
                    startField(Step.EXTRA_LENGTH, 2);
                } else {
                    afterOptionalField();
                }
            }
            case EXTRA_LENGTH -> {
                int length = (int) fieldValue;
                if (length == 0) {
                    afterOptionalField();
                } else {
                    startField(Step.EXTRA, length);
                }
            }
            case EXTRA, HEADER_CRC -> afterOptionalField();
            case TRAILER -> checkTrailer();
            default -> throw new IllegalStateException("no field ends in " + step);
        }
    }

    /** Moves past the gzip header field just read to the next one present, or to the data. */
    private void afterOptionalField() throws ZipException {
        Step next = switch (step) {
            case TIME_EXTRA_FLAGS_OS, EXTRA_LENGTH, EXTRA -> Step.NAME;
            case NAME -> Step.COMMENT;
            case COMMENT -> Step.HEADER_CRC;
            default -> Step.DATA;
        };
        if (next == Step.NAME && (flags & FNAME) == 0) {
            next = Step.COMMENT;
        }
        if (next == Step.COMMENT && (flags & FCOMMENT) == 0) {
            next = Step.HEADER_CRC;
        }
        if (next == Step.HEADER_CRC && (flags & FHCRC) == 0) {
            next = Step.DATA;
        }
        if (next == Step.HEADER_CRC) {
            startField(Step.HEADER_CRC, 2);
        } else if (next == Step.DATA) {
            checksum = new CRC32();
            startData();
        } else {
            step = next;
        }
    }

    private void checkTrailer() throws ZipException {
        if (!gzip) {
            long adler = Integer.reverseBytes((int) fieldValue) & 0xffff_ffffL; // zlib's trailer is big-endian
            if (checksum != null && adler != checksum.getValue()) {
                throw new ZipException("zlib Adler-32 mismatch");
            }
            step = Step.DONE;
            return;
        }
        long crc = fieldValue & 0xffff_ffffL;
        long size = fieldValue >>> 32;
        if (crc != checksum.getValue()) {
            throw new ZipException("gzip CRC-32 mismatch");
        }
        if (size != (checksumLength & 0xffff_ffffL)) {
            throw new ZipException("gzip size mismatch");
        }
        anotherMember = true;
        step = Step.ID1;
    }

    private void notAnotherMember(String message) throws ZipException {
        if (!anotherMember) {
            throw new ZipException(message);
        }
        step = Step.DONE; // trailing bytes that do not start a member: ignored
    }
}
