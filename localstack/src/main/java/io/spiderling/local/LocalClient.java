package io.spiderling.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The one client of a local run that was given no clients file: a random bearer token and webhook secret, written to
 * a clients file only its owner can read, so the API is never open even on a laptop.
 */
public record LocalClient(String id, String token, String webhookSecret, Path file) {

    public static final String ID = "local";

    public static LocalClient create() {
        SecureRandom random = new SecureRandom();
        String token = "tok-" + hex(random);
        String secret = "whsec-" + hex(random);
        try {
            Path file = Files.createTempFile("spiderling-clients-", ".txt",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            file.toFile().deleteOnExit();
            Files.writeString(file, "# client-id token webhook-secret\n" + ID + " " + token + " " + secret + "\n");
            return new LocalClient(ID, token, secret, file);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the local clients file", e);
        }
    }

    private static String hex(SecureRandom random) {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public String toString() {
        return "LocalClient[" + id + "]";
    }
}
