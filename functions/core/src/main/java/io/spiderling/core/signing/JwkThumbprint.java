package io.spiderling.core.signing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The JWK SHA-256 thumbprint (RFC 7638) of an OKP public key, whose required members are {@code crv}, {@code kty} and
 * {@code x} in that (lexicographic) order (RFC 8037 appendix A.3): the {@code keyid} Web Bot Auth asks for.
 */
public final class JwkThumbprint {

    private JwkThumbprint() {}

    /** base64url, unpadded, of SHA-256 over {@code {"crv":…,"kty":"OKP","x":…}} with no whitespace. */
    public static String ofOkp(String crv, String x) {
        // The members are base64url text and a curve name, so none needs JSON escaping; refuse one that would.
        if (!crv.matches("[A-Za-z0-9]+") || !x.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("not an OKP key: crv " + crv + ", x " + x);
        }
        String canonical = "{\"crv\":\"" + crv + "\",\"kty\":\"OKP\",\"x\":\"" + x + "\"}";
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
