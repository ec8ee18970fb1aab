package io.spiderling.local.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.core.signing.KeyDirectory;
import io.spiderling.core.signing.KeyRing;
import io.spiderling.core.signing.SigningKey;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code spiderling keys new|directory}: the key set written as the functions read it, and never a private key shown. */
class KeysCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void keysNew_whenNoKeySet_expectOneKeyOwnerOnlyAndOnlyItsThumbprintPrinted() throws Exception {
        Path file = dir.resolve("nested/signing-keys.json");

        CliRun run = CliRun.of("keys", "new", "--keys", file.toString());

        assertEquals(0, run.code(), run.toString());
        KeyRing ring = KeyRing.parse(Files.readString(file));
        assertEquals(1, ring.all().size());
        SigningKey key = ring.all().getFirst();
        assertTrue(key.notBefore().isEmpty() && key.expiresAt().isEmpty(), key.toString());
        assertTrue(run.out().contains("Created key " + key.keyId() + " to " + file), run.toString());
        String d = JSON.readTree(Files.readString(file)).get("keys").get(0).get("d").asText();
        assertFalse(run.out().contains(d) || run.err().contains(d), "the private key is never printed");
        assertTrue(run.out().contains("spiderling.signing.keys-file=" + file), run.toString());
        assertTrue(run.out().contains("aws secretsmanager put-secret-value"), run.toString());
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        }
    }

    @Test
    void keysNew_whenKeySetExists_expectTheOldKeyKeptAndTheNewOneStartingADayLater() throws Exception {
        Path file = dir.resolve("signing-keys.json");
        assertEquals(0, CliRun.of("keys", "new", "--keys", file.toString()).code());
        SigningKey old = KeyRing.parse(Files.readString(file)).all().getFirst();
        Instant before = Instant.now();

        CliRun run = CliRun.of("keys", "new", "--keys", file.toString(), "--valid-for", "90d");

        assertEquals(0, run.code(), run.toString());
        List<SigningKey> keys = KeyRing.parse(Files.readString(file)).all();
        assertEquals(2, keys.size());
        assertEquals(old.keyId(), keys.get(0).keyId());
        SigningKey next = keys.get(1);
        Instant start = next.notBefore().orElseThrow();
        assertTrue(!start.isBefore(before.plus(KeysCommand.DEFAULT_LEAD).minusSeconds(1))
                && !start.isAfter(Instant.now().plus(KeysCommand.DEFAULT_LEAD)), start.toString());
        assertEquals(start.plus(Duration.ofDays(90)), next.expiresAt().orElseThrow());
        assertTrue(run.out().contains("Added key " + next.keyId()), run.toString());
        assertTrue(run.out().contains("Retire the old key"), run.toString());
        // Until the new key starts, the old one signs; the directory lists both.
        KeyRing ring = KeyRing.parse(Files.readString(file));
        assertEquals(old.keyId(), ring.signingKey(Instant.now()).orElseThrow().keyId());
        assertEquals(next.keyId(), ring.signingKey(start).orElseThrow().keyId());
        assertEquals(2, ring.published(Instant.now()).size());
    }

    @Test
    void keysNew_whenNotBeforeAndExpiresGiven_expectThemAsNbfAndExp() throws Exception {
        Path file = dir.resolve("k.json");

        CliRun run = CliRun.of("keys", "new", "--keys", file.toString(), "--not-before", "2030-01-01",
                "--expires", "2030-06-01T12:00:00Z");

        assertEquals(0, run.code(), run.toString());
        JsonNode jwk = JSON.readTree(Files.readString(file)).get("keys").get(0);
        assertEquals(Instant.parse("2030-01-01T00:00:00Z").getEpochSecond(), jwk.get("nbf").asLong());
        assertEquals(Instant.parse("2030-06-01T12:00:00Z").getEpochSecond(), jwk.get("exp").asLong());
    }

    @Test
    void keysNew_whenExpiresAndValidForBoth_expectUsageAndNoFile() {
        Path file = dir.resolve("k.json");

        CliRun run = CliRun.of("keys", "new", "--keys", file.toString(), "--expires", "2030-01-01", "--valid-for",
                "30d");

        assertEquals(ExitCode.USAGE.code(), run.code(), run.toString());
        assertTrue(run.err().contains("--expires or --valid-for, not both"), run.toString());
        assertFalse(Files.exists(file));
    }

    @Test
    void keysNew_whenExpiresBeforeItStarts_expectUsage() {
        CliRun run = CliRun.of("keys", "new", "--keys", dir.resolve("k.json").toString(), "--not-before",
                "2030-02-01", "--expires", "2030-01-01");

        assertEquals(ExitCode.USAGE.code(), run.code(), run.toString());
        assertTrue(run.err().contains("would expire"), run.toString());
    }

    @Test
    void keysNew_whenTimeOrDurationUnreadable_expectUsageNamingTheOption() {
        CliRun badTime = CliRun.of("keys", "new", "--keys", dir.resolve("k.json").toString(), "--not-before",
                "tomorrow");
        CliRun badDuration = CliRun.of("keys", "new", "--keys", dir.resolve("k.json").toString(), "--valid-for",
                "a while");

        assertEquals(ExitCode.USAGE.code(), badTime.code(), badTime.toString());
        assertTrue(badTime.err().contains("--not-before takes an instant"), badTime.toString());
        assertEquals(ExitCode.USAGE.code(), badDuration.code(), badDuration.toString());
        assertTrue(badDuration.err().contains("--valid-for takes a duration"), badDuration.toString());
    }

    @Test
    void keysNew_whenFileIsNotAKeySet_expectUsageAndTheFileUntouched() throws Exception {
        Path file = Files.writeString(dir.resolve("k.json"), "{\"not\":\"keys\"}");

        CliRun run = CliRun.of("keys", "new", "--keys", file.toString());

        assertEquals(ExitCode.USAGE.code(), run.code(), run.toString());
        assertTrue(run.err().contains(file + " is not a usable key set"), run.toString());
        assertEquals("{\"not\":\"keys\"}", Files.readString(file));
    }

    @Test
    void keysDirectory_whenKeySet_expectThePublicKeysAtTheWellKnownPathAndTheMediaTypeSaid() throws Exception {
        Path file = dir.resolve("k.json");
        assertEquals(0, CliRun.of("keys", "new", "--keys", file.toString()).code());
        assertEquals(0, CliRun.of("keys", "new", "--keys", file.toString()).code());
        List<SigningKey> keys = KeyRing.parse(Files.readString(file)).all();
        Path out = dir.resolve("site");

        CliRun run = CliRun.of("keys", "directory", "--keys", file.toString(), "--out", out.toString());

        assertEquals(0, run.code(), run.toString());
        Path written = out.resolve(".well-known/http-message-signatures-directory");
        String body = Files.readString(written);
        assertEquals(body.strip(), new KeyDirectory(() -> KeyRing.parse(readUnchecked(file)), Duration.ZERO)
                .json(Instant.now()), "what the API's route serves, unsigned");
        JsonNode listed = JSON.readTree(body).get("keys");
        assertEquals(keys.stream().map(SigningKey::x).toList(),
                List.of(listed.get(0).get("x").asText(), listed.get(1).get("x").asText()));
        assertFalse(body.contains("\"d\""), "never a private key");
        assertTrue(run.out().contains("Content-Type " + KeyDirectory.MEDIA_TYPE), run.toString());
        assertTrue(run.out().contains("default_type " + KeyDirectory.MEDIA_TYPE), run.toString());
        assertTrue(run.out().contains("no response signature"), run.toString());
    }

    @Test
    void keysDirectory_whenNoKeySet_expectUsagePointingAtKeysNew() {
        CliRun run = CliRun.of("keys", "directory", "--keys", dir.resolve("none.json").toString(), "--out",
                dir.toString());

        assertEquals(ExitCode.USAGE.code(), run.code(), run.toString());
        assertTrue(run.err().contains("./spiderling keys new creates one"), run.toString());
    }

    @Test
    void fetch_whenConfigKeyUnknown_expectUsageNamingIt() throws Exception {
        Path urls = Files.writeString(dir.resolve("urls.txt"), "http://127.0.0.2:1/\n");

        CliRun run = CliRun.of("fetch", "--memory", "--config", "spiderling.signing.enabeld=true", urls.toString());

        assertEquals(ExitCode.USAGE.code(), run.code(), run.toString());
        assertTrue(run.err().contains("--config spiderling.signing.enabeld: no such configuration key"),
                run.toString());
    }

    @Test
    void fetch_whenConfigWithEndpoint_expectUsageSayingTheDeploymentHasItsOwn() throws Exception {
        Path urls = Files.writeString(dir.resolve("urls.txt"), "http://127.0.0.2:1/\n");

        CliRun run = CliRun.of("fetch", "--endpoint", "http://127.0.0.1:1", "--token", "t", "--config",
                "spiderling.signing.enabled=true", urls.toString());

        assertEquals(ExitCode.USAGE.code(), run.code(), run.toString());
        assertTrue(run.err().contains("the deployment at --endpoint runs with its own configuration"),
                run.toString());
    }

    private static String readUnchecked(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
