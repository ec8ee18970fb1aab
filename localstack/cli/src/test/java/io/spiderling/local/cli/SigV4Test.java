package io.spiderling.local.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** {@code --iam}: requests to a deployment signed for API Gateway (execute-api) in its region. */
class SigV4Test {

    private static final URI BATCHES = URI.create("https://abc123.execute-api.eu-west-1.amazonaws.com/batches");

    @Test
    void signed_whenBasicCredentials_expectAnExecuteApiSignatureOverTheBody() {
        var credentials = new ApiClient.Credentials.SigV4("eu-west-1",
                StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret")));

        Map<String, List<String>> headers = ApiClient.signed(credentials, "POST", BATCHES,
                "{\"urls\":[]}".getBytes(StandardCharsets.UTF_8), Map.of("Idempotency-Key", "k"), true);

        String authorization = headers.get("Authorization").getFirst();
        assertTrue(authorization.startsWith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"), authorization);
        assertTrue(authorization.contains("/eu-west-1/execute-api/aws4_request"), authorization);
        assertTrue(authorization.contains("SignedHeaders=content-type;host;idempotency-key;x-amz-content-sha256;x-amz-date"),
                authorization);
        assertTrue(headers.containsKey("X-Amz-Date"), headers.toString());
        assertEquals(List.of(sha256Hex("{\"urls\":[]}")), headers.get("x-amz-content-sha256"), "the body is signed");
    }

    private static String sha256Hex(String text) {
        return io.spiderling.core.content.Hashing.sha256Hex(text);
    }

    @Test
    void signed_whenSessionCredentials_expectTheSessionTokenSent() {
        var credentials = new ApiClient.Credentials.SigV4("us-east-1", StaticCredentialsProvider.create(
                AwsSessionCredentials.create("ASIAEXAMPLE", "secret", "session-token")));

        Map<String, List<String>> headers = ApiClient.signed(credentials, "GET", BATCHES, new byte[0], Map.of(),
                false);

        assertEquals(List.of("session-token"), headers.get("X-Amz-Security-Token"));
        assertTrue(headers.get("Authorization").getFirst().contains("/us-east-1/execute-api/aws4_request"));
    }
}
