package io.spiderling.core.signing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The key directory (HTTP Message Signatures Directory draft): the public half of every key not yet expired, as a
 * JWKS, served with its media type, and the response signed by each of those keys, as the draft asks, so a site can
 * tell the keys came from whoever holds them.
 */
public final class KeyDirectory {

    public static final String MEDIA_TYPE = "application/http-message-signatures-directory+json";
    public static final String WELL_KNOWN_PATH = "/.well-known/http-message-signatures-directory";
    public static final String TAG = "http-message-signatures-directory";
    /** The response's signatures cover the authority of the request that asked for the directory. */
    public static final List<CoveredComponent> COMPONENTS = List.of(CoveredComponent.AUTHORITY.ofRequest());

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Supplier<KeyRing> keys;
    private final Duration validity;

    /** @param validity how long the response's signatures, and so a cached copy of it, stay good */
    public KeyDirectory(Supplier<KeyRing> keys, Duration validity) {
        this.keys = Objects.requireNonNull(keys, "keys");
        this.validity = Objects.requireNonNull(validity, "validity");
    }

    /** The directory's body at {@code now}: public members only, never {@code d}. */
    public String json(Instant now) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode array = root.putArray("keys");
        for (SigningKey key : keys.get().published(now)) {
            ObjectNode jwk = array.addObject().put("kty", "OKP").put("crv", SigningKey.CURVE).put("kid", key.keyId())
                    .put("x", key.x()).put("use", "sig");
            key.notBefore().ifPresent(t -> jwk.put("nbf", t.getEpochSecond()));
            key.expiresAt().ifPresent(t -> jwk.put("exp", t.getEpochSecond()));
        }
        return root.toString();
    }

    /** The response to a request for the directory at {@code authority}: body and headers, signed at {@code now}. */
    public Response response(String authority, Instant now) {
        Instant created = now.truncatedTo(ChronoUnit.SECONDS);
        List<String> inputs = new ArrayList<>();
        List<String> signatures = new ArrayList<>();
        List<SigningKey> published = keys.get().published(now);
        for (int i = 0; i < published.size(); i++) {
            SigningKey key = published.get(i);
            SignatureParameters parameters = RequestSigner.parameters(key, created, validity, Optional.empty(), TAG,
                    COMPONENTS);
            byte[] base = SignatureBase.of(parameters, Map.of(COMPONENTS.get(0), authority));
            String label = "binding" + i;
            inputs.add(label + "=" + parameters.serialized());
            signatures.add(label + "=" + StructuredFields.binary(key.sign(base)));
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", MEDIA_TYPE);
        // A cached copy lives no longer than its signatures.
        headers.put("Cache-Control", "max-age=" + validity.toSeconds());
        if (!inputs.isEmpty()) {
            headers.put(SignatureHeaders.SIGNATURE_INPUT, String.join(", ", inputs));
            headers.put(SignatureHeaders.SIGNATURE, String.join(", ", signatures));
        }
        return new Response(json(now), headers);
    }

    /** The directory's body and the headers to send it with. */
    public record Response(String body, Map<String, String> headers) {
        public Response {
            headers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        }
    }
}
