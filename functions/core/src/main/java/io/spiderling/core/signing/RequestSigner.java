package io.spiderling.core.signing;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Signs a request as Web Bot Auth asks (ADR 21): {@code Signature-Agent} names the key directory as an sf-string, and
 * one signature, labelled {@code sig1}, covers {@code @authority} and {@code signature-agent}, with {@code created},
 * {@code expires}, {@code keyid} (the key's JWK thumbprint), {@code nonce} and {@code tag="web-bot-auth"}. It covers
 * neither the method nor the path: a site checks who sent the request, not what it asked for.
 */
public final class RequestSigner {

    public static final String TAG = "web-bot-auth";
    public static final String LABEL = "sig1";
    public static final CoveredComponent SIGNATURE_AGENT = CoveredComponent.of("signature-agent");
    public static final List<CoveredComponent> COMPONENTS = List.of(CoveredComponent.AUTHORITY, SIGNATURE_AGENT);

    private final Supplier<KeyRing> keys;
    private final String signatureAgent;
    private final Duration validity;
    private final NonceSource nonces;

    /**
     * @param directory the key directory's URL, sent as the {@code Signature-Agent}
     * @param validity how long a signature is good for from its creation; never past its key's {@code exp}
     */
    public RequestSigner(Supplier<KeyRing> keys, URI directory, Duration validity, NonceSource nonces) {
        this.keys = Objects.requireNonNull(keys, "keys");
        if (!directory.isAbsolute() || !(directory.getScheme().equals("https") || directory.getScheme().equals("http"))) {
            throw new IllegalArgumentException("the Signature-Agent must be an http(s) URL: " + directory);
        }
        this.signatureAgent = StructuredFields.string(directory.toString());
        if (validity.isNegative() || validity.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("a signature must be valid for a second at least: " + validity);
        }
        this.validity = validity;
        this.nonces = Objects.requireNonNull(nonces, "nonces");
    }

    /**
     * The headers for a request to {@code authority} (as {@link Authority#of} derives it), signed at {@code now};
     * empty when no key of the ring is valid then, in which case the request goes unsigned.
     */
    public Optional<SignatureHeaders> sign(String authority, Instant now) {
        Optional<SigningKey> key = keys.get().signingKey(now);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        SignatureParameters parameters = parameters(key.get(), now.truncatedTo(ChronoUnit.SECONDS), validity,
                Optional.of(Base64.getUrlEncoder().withoutPadding().encodeToString(nonces.next())), TAG,
                COMPONENTS);
        byte[] base = SignatureBase.of(parameters, Map.of(CoveredComponent.AUTHORITY, authority, SIGNATURE_AGENT,
                signatureAgent));
        return Optional.of(new SignatureHeaders(signatureAgent, LABEL + "=" + parameters.serialized(),
                LABEL + "=" + StructuredFields.binary(key.get().sign(base))));
    }

    /** The parameters of a signature by {@code key} created at {@code created}, cut at the key's expiry. */
    static SignatureParameters parameters(SigningKey key, Instant created, Duration validity, Optional<String> nonce,
            String tag, List<CoveredComponent> components) {
        Instant expires = created.plus(validity);
        if (key.expiresAt().isPresent() && key.expiresAt().get().isBefore(expires)) {
            expires = key.expiresAt().get().truncatedTo(ChronoUnit.SECONDS);
        }
        List<SignatureParameters.Text> strings = new ArrayList<>(2);
        nonce.ifPresent(n -> strings.add(new SignatureParameters.Text("nonce", n)));
        strings.add(new SignatureParameters.Text("tag", tag));
        return new SignatureParameters(components, created, Optional.of(expires), key.keyId(), strings);
    }
}
