package io.spiderling.core.signing;

/**
 * Where a request signature's {@code nonce} comes from: the architecture draft asks for a random byte array, 64 bytes
 * recommended, unique within the signature's validity. Passed in, so that a test can fix it.
 */
@FunctionalInterface
public interface NonceSource {

    int RECOMMENDED_BYTES = 64;

    byte[] next();

    /** {@link #RECOMMENDED_BYTES} bytes at a time from a {@link java.security.SecureRandom} of its own. */
    static NonceSource secureRandom() {
        java.security.SecureRandom random = new java.security.SecureRandom();
        return () -> {
            byte[] nonce = new byte[RECOMMENDED_BYTES];
            random.nextBytes(nonce);
            return nonce;
        };
    }
}
