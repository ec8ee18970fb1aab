package io.spiderling.core.content;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 as lower-case hex, the one digest used for URL hashes, content hashes and derived ids; and SHA-1 in base32,
 * the digest WARC records carry by convention.
 */
public final class Hashing {

    private Hashing() {}

    public static String sha256Hex(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must support SHA-256", e);
        }
    }

    public static String sha256Hex(String utf8) {
        return sha256Hex(utf8.getBytes(StandardCharsets.UTF_8));
    }

    /** The SHA-1 of {@code b} as WARC writes digests: {@code sha1:} and RFC 4648 base32, upper case, no padding. */
    public static String warcSha1(byte[] b) {
        try {
            return "sha1:" + base32(MessageDigest.getInstance("SHA-1").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must support SHA-1", e);
        }
    }

    /** RFC 4648 base32 without padding (a SHA-1's 20 bytes make exactly 32 characters). */
    static String base32(byte[] bytes) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
        StringBuilder out = new StringBuilder((bytes.length * 8 + 4) / 5);
        int buffer = 0;
        int bits = 0;
        for (byte b : bytes) {
            buffer = (buffer << 8) | (b & 0xff);
            bits += 8;
            while (bits >= 5) {
                out.append(alphabet.charAt((buffer >>> (bits - 5)) & 31));
                bits -= 5;
            }
        }
        if (bits > 0) {
            out.append(alphabet.charAt((buffer << (5 - bits)) & 31));
        }
        return out.toString();
    }
}
