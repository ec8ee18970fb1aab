package io.spiderling.core.signing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.EdECPrivateKey;
import java.security.interfaces.EdECPublicKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The deployment's signing keys, read from a JWKS whose keys carry their private {@code d}: locally a file, on AWS a
 * Secrets Manager secret. Rotation is by validity: add the new key with an {@code nbf} ahead, and it takes over
 * signing then, while the old key stays in the directory until its {@code exp}, so a site that cached the directory
 * meanwhile still knows both.
 */
public final class KeyRing {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<SigningKey> keys;

    private KeyRing(List<SigningKey> keys) {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("the key set holds no key");
        }
        this.keys = List.copyOf(keys);
    }

    public static KeyRing of(List<SigningKey> keys) {
        return new KeyRing(keys);
    }

    /**
     * The keys of a JWKS text: {@code {"keys":[{"kty":"OKP","crv":"Ed25519","d":…,"x":…,"nbf":…,"exp":…}]}}, with
     * {@code nbf} and {@code exp} in epoch seconds and optional. Anything else is refused, with the reason.
     */
    public static KeyRing parse(String jwks) {
        JsonNode root;
        try {
            root = JSON.readTree(jwks);
        } catch (IOException e) {
            throw new IllegalArgumentException("the key set is not JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
        JsonNode array = root == null ? null : root.get("keys");
        if (array == null || !array.isArray()) {
            throw new IllegalArgumentException("the key set must be {\"keys\":[…]}");
        }
        List<SigningKey> keys = new ArrayList<>();
        for (JsonNode jwk : array) {
            keys.add(key(jwk, keys.size()));
        }
        if (keys.stream().map(SigningKey::keyId).distinct().count() != keys.size()) {
            throw new IllegalArgumentException("the key set holds a key twice");
        }
        return new KeyRing(keys);
    }

    private static SigningKey key(JsonNode jwk, int index) {
        String where = "key " + index + ": ";
        if (!"OKP".equals(jwk.path("kty").asText()) || !SigningKey.CURVE.equals(jwk.path("crv").asText())) {
            throw new IllegalArgumentException(where + "only OKP Ed25519 keys are supported");
        }
        if (!jwk.path("d").isTextual() || !jwk.path("x").isTextual()) {
            throw new IllegalArgumentException(where + "needs its private d and public x");
        }
        try {
            return SigningKey.of(jwk.get("d").asText(), jwk.get("x").asText(), seconds(jwk, "nbf"),
                    seconds(jwk, "exp"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + e.getMessage(), e);
        }
    }

    private static Optional<Instant> seconds(JsonNode jwk, String member) {
        JsonNode value = jwk.get(member);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.canConvertToLong() || !value.isIntegralNumber()) {
            throw new IllegalArgumentException(member + " must be epoch seconds");
        }
        return Optional.of(Instant.ofEpochSecond(value.asLong()));
    }

    /** The key that signs at {@code now}: of the keys valid then, the one that started last. */
    public Optional<SigningKey> signingKey(Instant now) {
        return keys.stream().filter(k -> k.validAt(now))
                .max(Comparator.comparing((SigningKey k) -> k.notBefore().orElse(Instant.MIN)));
    }

    /** The keys the directory lists at {@code now}: every key not yet expired, the next one included. */
    public List<SigningKey> published(Instant now) {
        return keys.stream().filter(k -> !k.expiredAt(now)).toList();
    }

    public List<SigningKey> all() {
        return keys;
    }

    /**
     * A new private JWK, as one member of a key set's {@code keys}: {@code kty}, {@code crv}, {@code x}, {@code d},
     * the thumbprint as {@code kid}, and the validity given.
     */
    public static ObjectNode newPrivateJwk(Optional<Instant> notBefore, Optional<Instant> expiresAt) {
        try {
            KeyPair pair = KeyPairGenerator.getInstance(SigningKey.CURVE).generateKeyPair();
            byte[] d = ((EdECPrivateKey) pair.getPrivate()).getBytes().orElseThrow();
            String x = base64Url(encode((EdECPublicKey) pair.getPublic()));
            ObjectNode jwk = JSON.createObjectNode().put("kty", "OKP").put("crv", SigningKey.CURVE)
                    .put("kid", JwkThumbprint.ofOkp(SigningKey.CURVE, x)).put("x", x).put("d", base64Url(d));
            notBefore.ifPresent(t -> jwk.put("nbf", t.getEpochSecond()));
            expiresAt.ifPresent(t -> jwk.put("exp", t.getEpochSecond()));
            return jwk;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK since 15 has Ed25519", e);
        }
    }

    /** A key set text with {@code jwk} added to the keys of {@code existing} (or alone when there is none). */
    public static String withKey(Optional<String> existing, ObjectNode jwk) {
        try {
            ObjectNode root = existing.isPresent() ? (ObjectNode) JSON.readTree(existing.get())
                    : JSON.createObjectNode();
            ArrayNode keys = root.has("keys") ? (ArrayNode) root.get("keys") : root.putArray("keys");
            keys.add(jwk);
            parse(root.toString());
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (IOException | ClassCastException e) {
            throw new IllegalArgumentException("the existing key set is not a JWKS: " + e.getMessage(), e);
        }
    }

    /** RFC 8032 5.1.2: y little-endian, with the sign of x in the top bit of the last byte. */
    private static byte[] encode(EdECPublicKey key) {
        byte[] bigEndian = key.getPoint().getY().toByteArray();
        byte[] out = new byte[32];
        for (int i = 0; i < bigEndian.length && i < 32; i++) {
            out[i] = bigEndian[bigEndian.length - 1 - i];
        }
        if (key.getPoint().isXOdd()) {
            out[31] |= (byte) 0x80;
        }
        return out;
    }

    private static String base64Url(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

}
