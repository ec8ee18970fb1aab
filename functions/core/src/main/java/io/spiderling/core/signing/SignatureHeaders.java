package io.spiderling.core.signing;

import java.util.LinkedHashMap;
import java.util.Map;

/** The three fields a signed request carries, each value ready to send. */
public record SignatureHeaders(String signatureAgent, String signatureInput, String signature) {

    public static final String SIGNATURE_AGENT = "Signature-Agent";
    public static final String SIGNATURE_INPUT = "Signature-Input";
    public static final String SIGNATURE = "Signature";

    /** Name to value, in the order they are sent. */
    public Map<String, String> asMap() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(SIGNATURE_AGENT, signatureAgent);
        headers.put(SIGNATURE_INPUT, signatureInput);
        headers.put(SIGNATURE, signature);
        return headers;
    }
}
