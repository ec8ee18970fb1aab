package io.spiderling.testkit;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The sample clients of {@code events/clients-sample.txt}: the sample events carry client A's token, and the tests
 * configure this file as the clients file. Test credentials only.
 */
public final class SampleClients {

    public static final String CLIENT_A = "client-a";
    public static final String TOKEN_A = "sample-token-client-a-0123456789";
    public static final String SECRET_A = "whsec-sample-client-a-0123456789";
    public static final String CLIENT_B = "client-b";
    public static final String TOKEN_B = "sample-token-client-b-0123456789";
    public static final String SECRET_B = "whsec-sample-client-b-0123456789";
    /** An admin (an operator), whose token the {@code /admin} sample events carry. */
    public static final String OPERATOR = "operator";
    public static final String TOKEN_OPERATOR = "sample-token-operator-0123456789";

    private SampleClients() {}

    /** The file, found in {@code events/} of the nearest directory above the working directory that has one. */
    public static Path file() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path file = dir.resolve("events").resolve("clients-sample.txt");
            if (Files.exists(file)) {
                return file;
            }
        }
        throw new IllegalStateException("events/clients-sample.txt not found above " + Path.of("").toAbsolutePath());
    }
}
