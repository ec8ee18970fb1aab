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
 * a clients file only its owner can read, so the API is never open even on a laptop. On a persistent stack the file
 * lives in the data folder and is reused ({@link #loadOrCreate}), since batches belong to their client and a resumed
 * run reads its batch with the same token. It is an admin: the only user of a local run is its operator too, and may
 * call the {@code /admin} routes (a file made before admins existed keeps its three fields, and no admin).
 */
public record LocalClient(String id, String token, String webhookSecret, Path file) {

    public static final String ID = "local";

    /** A new client in a temporary file, deleted when the JVM exits. */
    public static LocalClient create() {
        try {
            Path file = Files.createTempFile("spiderling-clients-", ".txt", OWNER_ONLY);
            file.toFile().deleteOnExit();
            return write(file);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the local clients file", e);
        }
    }

    /** The client in {@code file} when it holds one, else a new one written there, readable by its owner only. */
    public static LocalClient loadOrCreate(Path file) {
        try {
            if (Files.exists(file)) {
                for (String line : Files.readAllLines(file)) {
                    String[] fields = line.strip().split("\\s+");
                    if ((fields.length == 3 || fields.length == 4 && fields[3].equals("admin"))
                            && fields[0].equals(ID)) {
                        return new LocalClient(ID, fields[1], fields[2], file);
                    }
                }
                throw new IllegalStateException("the clients file " + file + " holds no line '" + ID
                        + " <token> <webhook-secret>'; delete it to have a new client made up");
            }
            Files.createFile(file, OWNER_ONLY);
            return write(file);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read or write the local clients file " + file, e);
        }
    }

    private static final java.nio.file.attribute.FileAttribute<?> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private static LocalClient write(Path file) throws IOException {
        SecureRandom random = new SecureRandom();
        String token = "tok-" + hex(random);
        String secret = "whsec-" + hex(random);
        Files.writeString(file, "# client-id token webhook-secret [admin]\n" + ID + " " + token + " " + secret
                + " admin\n");
        return new LocalClient(ID, token, secret, file);
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
