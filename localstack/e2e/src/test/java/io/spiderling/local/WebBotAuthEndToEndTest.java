package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spiderling.catalog.Secret;
import io.spiderling.core.signing.JwkThumbprint;
import io.spiderling.core.signing.KeyDirectory;
import io.spiderling.core.signing.KeyRing;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.RecordedRequest;
import io.spiderling.testkit.StackResources;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Web Bot Auth (ADR 21), checked independently: a batch with signing on across two local sites, robots.txt included;
 * every request the sites saw is handed, with the key directory the API publishes, to Cloudflare's reference
 * verifier, which must accept them all and reject tampered copies. What that verifier does not check is asserted
 * here: the covered components, keyid as the key's JWK thumbprint, the directory's media type and its own signatures.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class WebBotAuthEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Pattern INPUT = Pattern.compile(
            "sig1=\\(\"@authority\" \"signature-agent\"\\);created=(\\d+);expires=(\\d+);keyid=\"([A-Za-z0-9_-]+)\""
                    + ";nonce=\"[A-Za-z0-9_-]{86}\";tag=\"web-bot-auth\"");

    @Test
    void batch_whenSigningIsOn_expectEveryRequestSignedAndAcceptedByTheReferenceVerifier(EmbeddedAws aws,
            StackResources resources) throws Exception {
        int port = freePort();
        String agent = "http://127.0.0.1:" + port + KeyDirectory.WELL_KNOWN_PATH;
        Instant now = Instant.now();
        // A rotation under way: the current key, and the next one, published an hour before it starts signing.
        ObjectNode current = KeyRing.newPrivateJwk(Optional.empty(), Optional.of(now.plus(Duration.ofDays(2))));
        ObjectNode next = KeyRing.newPrivateJwk(Optional.of(now.plus(Duration.ofHours(1))), Optional.empty());
        // In the secret, as on AWS, read again at each use: so the fetcher's signing and the API's key directory
        // each read it themselves, and the call recorder sees both functions need it (LeastPrivilegeTest).
        String secret = resources.secret(Secret.SIGNING_KEYS);
        aws.secretsManager().putSecretValue(b -> b.secretId(secret).secretString(
                KeyRing.withKey(Optional.of(KeyRing.withKey(Optional.empty(), current)), next)));
        LocalSpiderling.Options options = LocalApi.withSampleClients(new LocalSpiderling.Options(port,
                LocalSpiderling.Options.DEFAULT_FETCH_CONCURRENCY, Clock.systemUTC()))
                .withConfig("spiderling.signing.enabled", "true")
                .withConfig("spiderling.signing.agent", agent)
                .withConfig("spiderling.signing.keys-secret", secret)
                .withConfig("spiderling.signing.keys-cache", "PT0S");
        try (LocalSites sites = LocalSites.start(2);
                LocalSpiderling local = LocalSpiderling.start(aws, resources, options)) {
            LocalSite first = sites.site(0);
            LocalSite second = sites.site(1);
            first.respond("/robots.txt", 200, "text/plain",
                    "User-agent: *\nDisallow: /private\n".getBytes(StandardCharsets.UTF_8));
            first.page("/", "<title>first</title>").page("/a", "<title>a</title>");
            second.page("/", "<title>second</title>");

            String batchId = LocalApi.submit(local, List.of(first.url("/"), first.url("/a"), second.url("/")));
            JsonNode status = LocalApi.awaitDone(local, batchId, Duration.ofSeconds(90));
            assertTrue(status.get("done").asBoolean(), status.toString());

            // The directory, as a site would fetch it: no credentials.
            HttpResponse<String> directory = HTTP.send(HttpRequest.newBuilder(
                    local.apiUri().resolve(KeyDirectory.WELL_KNOWN_PATH)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, directory.statusCode(), directory.body());
            assertEquals(KeyDirectory.MEDIA_TYPE, directory.headers().firstValue("content-type").orElseThrow());
            JsonNode published = JSON.readTree(directory.body()).get("keys");
            assertEquals(List.of(current.get("x").asText(), next.get("x").asText()),
                    List.of(published.get(0).get("x").asText(), published.get(1).get("x").asText()),
                    "both keys of the rotation are listed");
            assertFalse(directory.body().contains("\"d\""), "never a private key");
            String currentKeyId = JwkThumbprint.ofOkp("Ed25519", current.get("x").asText());
            assertEquals(currentKeyId, published.get(0).get("kid").asText());
            String directoryInput = directory.headers().firstValue("signature-input").orElseThrow();
            assertTrue(directoryInput.startsWith("binding0=(\"@authority\";req);") && directoryInput.contains(
                    ", binding1=(\"@authority\";req);"), directoryInput);

            List<RecordedRequest> requests = new ArrayList<>(first.requests());
            requests.addAll(second.requests());
            assertTrue(requests.stream().anyMatch(r -> r.path().equals("/robots.txt")), requests.toString());
            ArrayNode toVerify = JSON.createArrayNode();
            for (RecordedRequest request : requests) {
                String where = request.host() + request.path();
                assertEquals(Optional.of("\"" + agent + "\""), request.header("signature-agent"), where);
                Matcher input = INPUT.matcher(request.header("signature-input").orElse(""));
                assertTrue(input.matches(), where + ": " + request.header("signature-input"));
                assertEquals(currentKeyId, input.group(3), where + ": keyid is the signing key's JWK thumbprint");
                assertTrue(Long.parseLong(input.group(2)) > Long.parseLong(input.group(1)), where);
                toVerify.add(message(where, request, request.header("host").orElseThrow(), request.headers()));
            }
            // Tampered copies: another authority, another Signature-Agent. Both must be rejected.
            RecordedRequest sample = requests.getFirst();
            toVerify.add(message("tampered-authority", sample, "127.0.0.1:1", sample.headers()));
            Map<String, List<String>> otherAgent = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            otherAgent.putAll(sample.headers());
            otherAgent.put("signature-agent", List.of("\"https://impostor.example/.well-known/"
                    + "http-message-signatures-directory\""));
            toVerify.add(message("tampered-signature-agent", sample, sample.header("host").orElseThrow(), otherAgent));

            ObjectNode verifierInput = JSON.createObjectNode();
            verifierInput.putObject("directory").put("url", local.apiUri().resolve(KeyDirectory.WELL_KNOWN_PATH)
                    .toString()).put("status", 200).put("body", directory.body()).set("headers", JSON.valueToTree(
                    Map.of("signature-input", directoryInput,
                            "signature", directory.headers().firstValue("signature").orElseThrow())));
            verifierInput.set("requests", toVerify);
            JsonNode verdicts = ReferenceVerifier.verify(verifierInput);

            assertEquals(2, verdicts.get("directorySignatures").size(), verdicts.toString());
            verdicts.get("directorySignatures").forEach(signature ->
                    assertTrue(signature.get("accepted").asBoolean(), signature.toString()));
            JsonNode verdictsByRequest = verdicts.get("requests");
            assertEquals(requests.size() + 2, verdictsByRequest.size());
            for (int i = 0; i < requests.size(); i++) {
                assertTrue(verdictsByRequest.get(i).get("accepted").asBoolean(), verdictsByRequest.get(i).toString());
            }
            for (int i = requests.size(); i < requests.size() + 2; i++) {
                JsonNode tampered = verdictsByRequest.get(i);
                assertFalse(tampered.get("accepted").asBoolean(), tampered.toString());
                assertEquals("invalid signature", tampered.get("reason").asText(), tampered.toString());
            }
        }
    }

    /** A request as the verifier reads it: its URL, rebuilt from the Host it was sent with, and its headers. */
    private static ObjectNode message(String name, RecordedRequest request, String host,
            Map<String, List<String>> headers) {
        ObjectNode message = JSON.createObjectNode().put("name", name).put("url", "http://" + host + request.path());
        ObjectNode fields = message.putObject("headers");
        for (String header : List.of("signature-agent", "signature-input", "signature")) {
            fields.put(header, String.join(", ", headers.getOrDefault(header, List.of())));
        }
        return message;
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
