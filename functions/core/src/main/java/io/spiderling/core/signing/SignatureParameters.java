package io.spiderling.core.signing;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a signature covers and its parameters (RFC 9421 2.3), serialized in this order: created, expires, keyid, then
 * the string parameters in their order ({@code nonce}, {@code tag}). {@code expires} is left out when empty.
 *
 * @param strings string-valued parameters such as {@code nonce} and {@code tag}, in the order they are written
 */
public record SignatureParameters(List<CoveredComponent> components, Instant created, Optional<Instant> expires,
        String keyId, List<Text> strings) {

    /** A string-valued signature parameter. */
    public record Text(String name, String value) {
        public Text {
            StructuredFields.key(name);
            Objects.requireNonNull(value, "value");
        }
    }

    public SignatureParameters {
        components = List.copyOf(components);
        strings = List.copyOf(strings);
        Objects.requireNonNull(created, "created");
        Objects.requireNonNull(keyId, "keyId");
        if (expires.isPresent() && expires.get().isBefore(created)) {
            throw new IllegalArgumentException("expires " + expires.get() + " before created " + created);
        }
    }

    /** The inner list with its parameters: the {@code @signature-params} value and a Signature-Input member. */
    public String serialized() {
        StringBuilder out = new StringBuilder("(");
        for (int i = 0; i < components.size(); i++) {
            out.append(i == 0 ? "" : " ").append(components.get(i).serialized());
        }
        out.append(");created=").append(created.getEpochSecond());
        expires.ifPresent(e -> out.append(";expires=").append(e.getEpochSecond()));
        out.append(";keyid=").append(StructuredFields.string(keyId));
        for (Text text : strings) {
            out.append(';').append(text.name()).append('=').append(StructuredFields.string(text.value()));
        }
        return out.toString();
    }
}
