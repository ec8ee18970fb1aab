package io.spiderling.benchmarks;

import io.spiderling.core.signing.KeyRing;
import io.spiderling.core.signing.NonceSource;
import io.spiderling.core.signing.RequestSigner;
import io.spiderling.core.signing.SignatureHeaders;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What Web Bot Auth adds to each request (ADR 21): {@link RequestSigner#sign}, as the fetcher calls it on the
 * caller's thread: the key chosen from the ring, a 64-byte nonce ({@link NonceSource#secureRandom()}), the signature base and one
 * Ed25519 signature. The ring holds two keys, as during a rotation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Dslf4j.internal.verbosity=ERROR"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SigningBenchmark {

    private RequestSigner signer;
    private Instant now;

    @Setup
    public void setUp() {
        now = Instant.now();
        String jwks = KeyRing.withKey(Optional.of(KeyRing.withKey(Optional.empty(),
                KeyRing.newPrivateJwk(Optional.empty(), Optional.of(now.plus(Duration.ofDays(2)))))),
                KeyRing.newPrivateJwk(Optional.of(now.plus(Duration.ofHours(1))), Optional.empty()));
        KeyRing ring = KeyRing.parse(jwks);
        NonceSource nonces = NonceSource.secureRandom();
        signer = new RequestSigner(() -> ring,
                URI.create("https://bot.example.com/.well-known/http-message-signatures-directory"),
                Duration.ofMinutes(5), nonces);
    }

    @Benchmark
    public SignatureHeaders signRequest() {
        return signer.sign("www.example.com", now).orElseThrow();
    }
}
