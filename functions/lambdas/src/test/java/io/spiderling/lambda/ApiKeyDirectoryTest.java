package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.core.signing.KeyDirectory;
import io.spiderling.core.signing.KeyRing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.EdECPoint;
import java.security.spec.EdECPublicKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The key directory route with signing on (ADR 21): the sample event, sent as a site sends it (no credentials), gets
 * the public keys with their media type, and a response signature that checks out against the listed key, rebuilt
 * here by hand from RFC 9421 rather than with the signer's own code.
 */
@QuarkusTest
@TestProfile(ApiKeyDirectoryTest.SigningOn.class)
@QuarkusTestResource(TestStack.class)
class ApiKeyDirectoryTest {

    private static final Pattern INPUT = Pattern.compile("binding0=(\\(\"@authority\";req\\);created=\\d+;expires=\\d+"
            + ";keyid=\"([A-Za-z0-9_-]+)\";tag=\"http-message-signatures-directory\")");
    private static final Pattern SIGNATURE = Pattern.compile("binding0=:([A-Za-z0-9+/=]+):");

    /** The api handler with signing on, and a key set of one key in a file. */
    public static final class SigningOn implements QuarkusTestProfile {
        static final Path KEYS = keys();

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.lambda.handler", "api", "spiderling.signing.enabled", "true",
                    "spiderling.signing.agent", "https://bot.example/.well-known/http-message-signatures-directory",
                    "spiderling.signing.keys-file", KEYS.toString());
        }

        /**
         * One file at a fixed path, written once: Quarkus loads the profile in its own class loader too, and both
         * copies of this class must name the same key.
         */
        private static Path keys() {
            try {
                Path file = Path.of("target", "api-key-directory-test", "signing-keys.json").toAbsolutePath();
                if (!Files.exists(file)) {
                    Files.createDirectories(file.getParent());
                    Files.writeString(file, KeyRing.withKey(Optional.empty(),
                            KeyRing.newPrivateJwk(Optional.empty(), Optional.empty())));
                }
                return file;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Test
    void handleRequest_whenKeyDirectoryAskedWithoutCredentials_expectPublicKeysSignedForTheAskedAuthority()
            throws Exception {
        ObjectNode event = Events.load("api-get-key-directory.json");
        String host = event.at("/headers/host").asText();

        JsonNode response = Events.JSON.readTree(Events.invoke(event).statusCode(200).extract().asString());

        assertEquals(200, response.get("statusCode").asInt(), response.toString());
        JsonNode headers = response.get("headers");
        assertEquals(KeyDirectory.MEDIA_TYPE, headers.get("Content-Type").asText());
        assertTrue(headers.get("Cache-Control").asText().matches("max-age=\\d+"), headers.toString());
        String body = response.get("body").asText();
        assertFalse(body.contains("\"d\""), "never a private key");
        JsonNode key = Events.JSON.readTree(body).get("keys").get(0);
        JsonNode own = Events.JSON.readTree(Files.readString(SigningOn.KEYS)).get("keys").get(0);
        assertEquals(own.get("x").asText(), key.get("x").asText());

        Matcher input = INPUT.matcher(headers.get("Signature-Input").asText());
        assertTrue(input.matches(), headers.toString());
        assertEquals(key.get("kid").asText(), input.group(2));
        Matcher signature = SIGNATURE.matcher(headers.get("Signature").asText());
        assertTrue(signature.matches(), headers.toString());
        // RFC 9421 2.5: each covered component on its line, then the signature parameters.
        String base = "\"@authority\";req: " + host + "\n\"@signature-params\": " + input.group(1);
        Signature verifier = Signature.getInstance("Ed25519");
        verifier.initVerify(publicKey(key.get("x").asText()));
        verifier.update(base.getBytes(StandardCharsets.US_ASCII));
        assertTrue(verifier.verify(Base64.getDecoder().decode(signature.group(1))), base);
    }

    /** RFC 8032 5.1.3: the little-endian y, with the sign of x in the top bit of the last byte. */
    private static PublicKey publicKey(String x) throws Exception {
        byte[] little = Base64.getUrlDecoder().decode(x);
        byte[] big = new byte[little.length];
        for (int i = 0; i < little.length; i++) {
            big[i] = little[little.length - 1 - i];
        }
        boolean xOdd = (big[0] & 0x80) != 0;
        big[0] &= 0x7f;
        return KeyFactory.getInstance("Ed25519").generatePublic(new EdECPublicKeySpec(NamedParameterSpec.ED25519,
                new EdECPoint(xOdd, new BigInteger(1, big))));
    }
}
