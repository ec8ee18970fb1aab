package io.spiderling.core.auth;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.auth.Clients.Authentication;
import io.spiderling.core.auth.Clients.Authentication.Authenticated;
import io.spiderling.core.auth.Clients.Authentication.Invalid;
import io.spiderling.core.auth.Clients.Authentication.Missing;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.ValueSource;

class ClientsTest {

    private static final String EXAMPLE = resource("/auth/clients-example.txt");

    private final Clients clients = Clients.parse(EXAMPLE);

    @Test
    void parse_whenExampleFile_readsEveryClient() {
        assertEquals(Set.of("acme", "beta.team", "c_3", "ops"), clients.clientIds());
        assertEquals(Optional.of("whsec-acme-0a1b2c3d4e5f6789"), clients.webhookSecret("acme"));
        assertEquals(Optional.of("whsec#beta-ffeeddccbbaa9988"), clients.webhookSecret("beta.team"));
        assertEquals(Optional.of("whsec-c3-!\"$%&'()*+,-./:;<=>?@"), clients.webhookSecret("c_3"));
    }

    @Test
    void admin_whenFlaggedOrNotOrUnknown_isTrueOnlyForTheFlaggedClient() {
        assertTrue(clients.admin("ops"));
        assertFalse(clients.admin("acme"));
        assertFalse(clients.admin("nobody"));
        assertEquals(new Clients.Authentication.Authenticated("ops"),
                clients.authenticate(Optional.of("Bearer tok-ops-5e4d3c2b1a0f9e8d")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/auth/clients-invalid.csv", numLinesToSkip = 1)
    void parse_whenLineBreaksARule_throwsNamingTheLineButNoField(String rule, String text, String message) {
        String file = text.replace("\\n", "\n");
        if (message == null) {
            assertDoesNotThrow(() -> Clients.parse(file), rule);
            return;
        }

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Clients.parse(file), rule);

        assertEquals(message, e.getMessage(), rule);
        for (String field : file.split("\\s+")) {
            if (field.length() >= Clients.MIN_LENGTH) {
                assertFalse(e.getMessage().contains(field), () -> rule + ": message echoes " + field);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "# only a comment", "\n\n# a\n  # b\n"})
    void parse_whenNothingButCommentsAndBlanks_isNone(String text) {
        assertSame(Clients.none(), Clients.parse(text));
    }

    @Test
    void parse_whenWindowsLineEndings_readsLines() {
        Clients parsed = Clients.parse("a tok-a-0000000000000000 whsec-a-000000000000\r\n"
                + "b tok-b-0000000000000000 whsec-b-000000000000\r\n");

        assertEquals(new Authenticated("b"), parsed.authenticate(Optional.of("Bearer tok-b-0000000000000000")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/auth/authenticate-cases.csv", numLinesToSkip = 1)
    void authenticate_whenTableCase_givesExpectedOutcome(String rule, String header, String expected,
            String detail) {
        Authentication outcome = clients.authenticate(Optional.ofNullable(header));

        Authentication want = switch (expected) {
            case "authenticated" -> new Authenticated(detail);
            case "missing" -> new Missing();
            case "invalid" -> new Invalid(detail);
            default -> throw new IllegalArgumentException("unknown outcome in table: " + expected);
        };
        assertEquals(want, outcome, rule);
    }

    @Test
    void authenticate_whenNoClients_isInvalidForAnyToken() {
        assertEquals(new Invalid("unknown token"),
                Clients.none().authenticate(Optional.of("Bearer tok-acme-2f9d8c7b6a5e4d3c")));
    }

    @Test
    void webhookSecret_whenUnknownClient_isEmpty() {
        assertEquals(Optional.empty(), clients.webhookSecret("nobody"));
        assertEquals(Optional.empty(), clients.webhookSecret("ACME"));
    }

    @Test
    void toString_whenClientsLoaded_showsIdsButNoTokenOrSecret() {
        String shown = clients.toString();

        assertEquals("Clients[acme, beta.team, c_3, ops]", shown);
        for (String secretOrToken : List.of("tok-acme", "tok/beta", "tok_c3", "whsec")) {
            assertFalse(shown.contains(secretOrToken), shown);
        }
    }

    private static String resource(String name) {
        try (InputStream in = ClientsTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
