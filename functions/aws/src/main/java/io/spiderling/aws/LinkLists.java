package io.spiderling.aws;

import io.spiderling.core.robots.RobotsPolicy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A URL's list of links as one compressed binary attribute instead of a list of strings. DynamoDB bills a write by the
 * larger of the item's sizes before and after it, so a row that holds a page's hundred outlinks as text (about 5 KB)
 * made every later write of the row, each fetch's record included, cost five write units. Links of one page share
 * most of their bytes, and deflate keeps a fraction of them.
 *
 * <p>The format: a deflate stream (zlib framing) of the count, then each link's UTF-8 length and bytes, all counts
 * as 4-byte big-endian integers.
 */
final class LinkLists {

    /** A row holds at most 400 KB; no list that fits in one comes near this. */
    private static final int MAX_LINKS = 1_000_000;

    private LinkLists() {}

    /** The attribute for these links; empty for none, so the attribute is removed. */
    static Optional<AttributeValue> pack(List<String> links) {
        if (links.isEmpty()) {
            return Optional.empty();
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        try (DataOutputStream out = new DataOutputStream(new DeflaterOutputStream(bytes, deflater))) {
            out.writeInt(links.size());
            for (String link : links) {
                byte[] utf8 = link.getBytes(StandardCharsets.UTF_8);
                out.writeInt(utf8.length);
                out.write(utf8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deflater.end();
        }
        return Optional.of(AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(bytes.toByteArray())));
    }

    /** The links an attribute written by {@link #pack} holds; none when the attribute is absent. */
    static List<String> unpack(AttributeValue value) {
        if (value == null || value.b() == null) {
            return List.of();
        }
        Inflater inflater = new Inflater();
        try (DataInputStream in = new DataInputStream(new InflaterInputStream(
                new ByteArrayInputStream(value.b().asByteArrayUnsafe()), inflater))) {
            int count = in.readInt();
            if (count < 0 || count > MAX_LINKS) {
                throw new IllegalStateException("a packed link list says it holds " + count + " links");
            }
            List<String> links = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int length = in.readInt();
                if (length < 0 || length > RobotsPolicy.DYNAMODB_ITEM_LIMIT) {
                    throw new IllegalStateException("a packed link says it is " + length + " bytes long");
                }
                links.add(new String(in.readNBytes(length), StandardCharsets.UTF_8));
            }
            return List.copyOf(links);
        } catch (IOException e) {
            throw new UncheckedIOException("a packed link list is corrupt", e);
        } finally {
            inflater.end();
        }
    }
}
