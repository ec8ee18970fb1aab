package io.spiderling.core.signing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** RFC 9421 appendix B.2.6, "Signing a Request Using ed25519", reproduced byte for byte (Ed25519 is deterministic). */
class SignatureBaseTest {

    private static final List<CoveredComponent> COMPONENTS = List.of(CoveredComponent.of("date"),
            CoveredComponent.of("@method"), CoveredComponent.of("@path"), CoveredComponent.AUTHORITY,
            CoveredComponent.of("content-type"), CoveredComponent.of("content-length"));
    private static final SignatureParameters PARAMETERS = new SignatureParameters(COMPONENTS,
            Instant.ofEpochSecond(1618884473), Optional.empty(), "test-key-ed25519", List.of());
    private static final Map<CoveredComponent, String> VALUES = Map.of(
            COMPONENTS.get(0), "Tue, 20 Apr 2021 02:07:55 GMT",
            COMPONENTS.get(1), "POST",
            COMPONENTS.get(2), "/foo",
            COMPONENTS.get(3), "example.com",
            COMPONENTS.get(4), "application/json",
            COMPONENTS.get(5), "18");

    @Test
    void of_whenRfc9421B26Request_expectsTheRfcSignatureBase() {
        String expected = """
                "date": Tue, 20 Apr 2021 02:07:55 GMT
                "@method": POST
                "@path": /foo
                "@authority": example.com
                "content-type": application/json
                "content-length": 18
                "@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length")\
                ;created=1618884473;keyid="test-key-ed25519\"""";

        assertEquals(expected, new String(SignatureBase.of(PARAMETERS, VALUES), StandardCharsets.US_ASCII));
    }

    @Test
    void sign_whenRfc9421B26Base_expectsTheRfcSignature() {
        SigningKey key = Rfc9421Keys.rfc9421(Optional.empty(), Optional.empty());

        String signature = "sig-b26=" + StructuredFields.binary(key.sign(SignatureBase.of(PARAMETERS, VALUES)));

        assertEquals("sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:",
                signature);
        assertEquals("(\"date\" \"@method\" \"@path\" \"@authority\" \"content-type\" \"content-length\")"
                + ";created=1618884473;keyid=\"test-key-ed25519\"", PARAMETERS.serialized());
    }

    @Test
    void of_whenAComponentHasNoValue_refuses() {
        assertThrows(IllegalArgumentException.class, () -> SignatureBase.of(PARAMETERS, Map.of()));
    }

    @Test
    void serialized_whenComponentOfTheRequest_expectsReqParameter() {
        assertEquals("\"@authority\";req", CoveredComponent.AUTHORITY.ofRequest().serialized());
    }
}
