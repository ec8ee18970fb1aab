package io.spiderling.core.signing;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The signature base of RFC 9421 2.5: one line per covered component, {@code "name": value}, then the
 * {@code "@signature-params"} line, joined by LF with no trailing newline.
 */
public final class SignatureBase {

    private SignatureBase() {}

    /**
     * @param values each covered component's value, already canonical (a field's value trimmed, a derived component
     *     as RFC 9421 2.2 derives it)
     */
    public static byte[] of(SignatureParameters parameters, Map<CoveredComponent, String> values) {
        StringBuilder base = new StringBuilder(256);
        List<CoveredComponent> components = parameters.components();
        for (CoveredComponent component : components) {
            String value = values.get(component);
            if (value == null) {
                throw new IllegalArgumentException("no value for covered component " + component.serialized());
            }
            if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
                throw new IllegalArgumentException("a component value may not span lines: " + component.name());
            }
            base.append(component.serialized()).append(": ").append(value).append('\n');
        }
        base.append("\"@signature-params\": ").append(parameters.serialized());
        return base.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
