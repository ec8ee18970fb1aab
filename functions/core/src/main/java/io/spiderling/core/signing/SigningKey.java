package io.spiderling.core.signing;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.EdECPoint;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.EdECPublicKeySpec;
import java.security.spec.NamedParameterSpec;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * One Ed25519 key of the ring: its private half for signing, its public {@code x} for the directory, and when it may
 * be used. {@code notBefore} and {@code expiresAt} are the JWK's {@code nbf} and {@code exp} (the directory draft's
 * example carries both); a key without them is valid from always to forever.
 *
 * @param keyId the JWK thumbprint of the public key (RFC 7638), the signatures' {@code keyid}
 * @param x the public key, base64url, as the JWK has it
 */
public record SigningKey(String keyId, String x, PrivateKey privateKey, Optional<Instant> notBefore,
        Optional<Instant> expiresAt) {

    public static final String CURVE = "Ed25519";

    public SigningKey {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(privateKey, "privateKey");
        if (notBefore.isPresent() && expiresAt.isPresent() && !notBefore.get().isBefore(expiresAt.get())) {
            throw new IllegalArgumentException("key " + keyId + " expires before it starts");
        }
    }

    /**
     * The key of a private OKP JWK's {@code d} and {@code x}. Refuses a pair whose halves do not match, which a copy
     * and paste between two keys would give: every signature would then fail at the sites, silently.
     */
    public static SigningKey of(String d, String x, Optional<Instant> notBefore, Optional<Instant> expiresAt) {
        try {
            KeyFactory factory = KeyFactory.getInstance(CURVE);
            PrivateKey privateKey = factory.generatePrivate(
                    new EdECPrivateKeySpec(NamedParameterSpec.ED25519, decode(d, "d")));
            SigningKey key = new SigningKey(JwkThumbprint.ofOkp(CURVE, x), x, privateKey, notBefore, expiresAt);
            Signature verifier = Signature.getInstance(CURVE);
            verifier.initVerify(publicKey(factory, decode(x, "x")));
            byte[] probe = {'s', 'p', 'i', 'd', 'e', 'r', 'l', 'i', 'n', 'g'};
            verifier.update(probe);
            if (!verifier.verify(key.sign(probe))) {
                throw new IllegalArgumentException("key " + key.keyId() + ": d and x are not one key pair");
            }
            return key;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("not an Ed25519 key: " + e.getMessage(), e);
        }
    }

    /** An Ed25519 signature over {@code message} (RFC 8032: deterministic, 64 bytes). */
    public byte[] sign(byte[] message) {
        try {
            Signature signature = Signature.getInstance(CURVE);
            signature.initSign(privateKey);
            signature.update(message);
            return signature.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 signing failed", e);
        }
    }

    /** Whether the key may sign at {@code now}: started, and not expired. */
    public boolean validAt(Instant now) {
        return notBefore.map(nbf -> !now.isBefore(nbf)).orElse(true) && !expiredAt(now);
    }

    /** Whether the key is past its {@code exp}: it leaves the directory then. */
    public boolean expiredAt(Instant now) {
        return expiresAt.map(exp -> !now.isBefore(exp)).orElse(false);
    }

    /** RFC 8032 5.1.3: the little-endian y with the sign of x in the top bit. */
    private static PublicKey publicKey(KeyFactory factory, byte[] encoded) throws GeneralSecurityException {
        if (encoded.length != 32) {
            throw new IllegalArgumentException("x must be 32 bytes, not " + encoded.length);
        }
        byte[] bigEndian = new byte[32];
        for (int i = 0; i < 32; i++) {
            bigEndian[i] = encoded[31 - i];
        }
        boolean xOdd = (bigEndian[0] & 0x80) != 0;
        bigEndian[0] &= 0x7f;
        return factory.generatePublic(new EdECPublicKeySpec(NamedParameterSpec.ED25519,
                new EdECPoint(xOdd, new BigInteger(1, bigEndian))));
    }

    private static byte[] decode(String value, String member) {
        try {
            return Base64.getUrlDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(member + " is not base64url", e);
        }
    }

    @Override
    public String toString() {
        return "SigningKey[" + keyId + ", nbf " + notBefore.map(Instant::toString).orElse("-") + ", exp "
                + expiresAt.map(Instant::toString).orElse("-") + "]";
    }
}
