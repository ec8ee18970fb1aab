package io.spiderling.core.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.core.url.NormalizationResult.Accepted;
import io.spiderling.core.url.NormalizationResult.Rejected;
import io.spiderling.core.url.WhatwgUrl.Result;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Runs the WHATWG URL Standard's own test data ({@code url/urltestdata.jsonl}, its http(s) cases; the file says where
 * it comes from and how it was selected) against {@link WhatwgUrl} and {@link UrlNormalizer}.
 *
 * <p>A case passes when the parser gives the suite's href, or refuses what the suite says fails, and Spiderling then
 * requests that href without its fragment. Every other case must be listed in {@code url/urltestdata-deliberate.jsonl},
 * with one of the reasons Spiderling refuses a URL the standard accepts: userinfo, a scheme other than http(s), or a
 * length over {@value UrlNormalizer#MAX_LENGTH}. A case on neither list fails the test, and so does a listed case that
 * passes, so that the list stays exact.
 */
class WhatwgConformanceTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final UrlNormalizer normalizer = UrlNormalizer.create();

    /** One case of the suite; {@code href} is null where the suite expects a failure. */
    record Case(String category, String input, String base, String href) {
        static Case of(JsonNode node) {
            return new Case(node.get("category").asText(), node.get("input").asText(), text(node.get("base")),
                    node.path("failure").asBoolean() ? null : node.get("href").asText());
        }

        String key() {
            return input + " against " + base;
        }

        @Override
        public String toString() {
            return JSON.valueToTree(this).toString();
        }
    }

    /** Why Spiderling refuses a case the standard accepts; the names are those of the deliberate list. */
    enum Policy { USERINFO, SCHEME, LENGTH }

    @Test
    void parse_whenUrlTestData_givesTheSuitesHrefOrIsADeliberateDifference() {
        Map<String, String> deliberate = deliberateList();
        // category -> cases, passed, deliberate, and passed as a failure only because the scheme is not http(s)
        Map<String, int[]> counts = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        for (Case c : cases()) {
            int[] count = counts.computeIfAbsent(c.category(), k -> new int[4]);
            count[0]++;
            Optional<Policy> policy = deliberateDifference(c);
            String listed = deliberate.remove(c.key());
            if (policy.isEmpty() && conforms(c)) {
                count[1]++;
                if (WhatwgUrl.parse(c.input(), c.base()) instanceof Result.NotHttp) {
                    count[3]++; // a failure the suite expects, refused before the standard would have said why
                }
                if (listed != null) {
                    problems.add("listed as deliberate, but passes: " + c);
                }
            } else if (policy.isPresent() && policy.get().name().toLowerCase().equals(listed)) {
                count[2]++;
            } else {
                problems.add("does not conform" + policy.map(p -> " (" + p + ")").orElse("") + ": " + c + " gave "
                        + WhatwgUrl.parse(c.input(), c.base()));
            }
        }
        deliberate.keySet().forEach(key -> problems.add("listed as deliberate, but not in the suite: " + key));
        report(counts);
        assertTrue(problems.isEmpty(), problems.size() + " problems:\n" + String.join("\n", problems));
    }

    @Test
    void normalize_whenUrlTestData_requestsTheHrefWithoutFragmentOrRefusesWithReason() {
        Map<String, String> deliberate = deliberateList();
        List<String> problems = new ArrayList<>();
        for (Case c : cases()) {
            Optional<Accepted> accepted = c.base() == null
                    ? Optional.of(normalizer.normalize(c.input())).filter(Accepted.class::isInstance)
                            .map(Accepted.class::cast)
                    : normalizer.resolve(c.base(), c.input());
            if (accepted.isPresent()) {
                RequestUrl request = accepted.get().request();
                if (c.href() == null || !request.value().equals(withoutFragment(c.href()))) {
                    problems.add("accepted as " + request + ": " + c);
                } else {
                    assertEquals(request, RequestUrl.parse(request.value()), c.toString());
                    assertEquals(accepted.get().url(), NormalizedUrl.parse(accepted.get().url().value()), c.toString());
                }
            } else if (c.href() != null && !deliberate.containsKey(c.key())) {
                problems.add("refused (" + refusal(c) + "), neither a failure nor deliberate: " + c);
            }
        }
        assertTrue(problems.isEmpty(), problems.size() + " problems:\n" + String.join("\n", problems));
    }

    /** The parser agrees with the suite, and Spiderling requests the href without its fragment. */
    private boolean conforms(Case c) {
        Result parsed = WhatwgUrl.parse(c.input(), c.base());
        if (c.href() == null) {
            return !(parsed instanceof Result.Parsed);
        }
        if (!(parsed instanceof Result.Parsed(WhatwgUrl url)) || !url.href().equals(c.href())) {
            return false;
        }
        Optional<Accepted> accepted = c.base() == null
                ? Optional.of(normalizer.normalize(c.input())).filter(Accepted.class::isInstance).map(Accepted.class::cast)
                : normalizer.resolve(c.base(), c.input());
        return accepted.isPresent() && accepted.get().request().value().equals(url.hrefWithoutFragment());
    }

    /**
     * The policy by which Spiderling refuses a URL the standard accepts, or empty. The parser must still give the
     * suite's href where it parses the URL at all, so a deliberate case is still a check of the parser.
     */
    private static Optional<Policy> deliberateDifference(Case c) {
        if (c.href() == null) {
            return Optional.empty();
        }
        return switch (WhatwgUrl.parse(c.input(), c.base())) {
            case Result.NotHttp other -> Optional.of(Policy.SCHEME);
            case Result.Failure failure -> Optional.empty();
            case Result.Parsed(WhatwgUrl url) when !url.href().equals(c.href()) -> Optional.empty();
            case Result.Parsed(WhatwgUrl url) when url.hasCredentials() -> Optional.of(Policy.USERINFO);
            case Result.Parsed(WhatwgUrl url) when url.hrefWithoutFragment().length() > UrlNormalizer.MAX_LENGTH
                    || c.input().length() > UrlNormalizer.MAX_LENGTH -> Optional.of(Policy.LENGTH);
            case Result.Parsed parsed -> Optional.empty();
        };
    }

    private String refusal(Case c) {
        return c.base() == null && normalizer.normalize(c.input()) instanceof Rejected rejected ? rejected.reason()
                : "resolve gave nothing";
    }

    private static void report(Map<String, int[]> counts) {
        int[] total = new int[4];
        counts.forEach((category, count) -> {
            System.out.printf("WHATWG urltestdata, category %s: %d cases, %d passed (%d refused as not http(s)),"
                    + " %d deliberate%n", category, count[0], count[1], count[3], count[2]);
            for (int i = 0; i < 4; i++) {
                total[i] += count[i];
            }
        });
        System.out.printf("WHATWG urltestdata: %d cases, %d passed, %d deliberate%n", total[0], total[1], total[2]);
    }

    private static String withoutFragment(String href) {
        int hash = href.indexOf('#');
        return hash < 0 ? href : href.substring(0, hash);
    }

    static List<Case> cases() {
        return jsonLines("/url/urltestdata.jsonl").stream().map(Case::of).toList();
    }

    /** The deliberate differences: "input against base" to reason. */
    private static Map<String, String> deliberateList() {
        Map<String, String> list = new HashMap<>();
        for (JsonNode node : jsonLines("/url/urltestdata-deliberate.jsonl")) {
            String key = node.get("input").asText() + " against " + text(node.get("base"));
            if (list.put(key, node.get("reason").asText()) != null) {
                throw new IllegalStateException("listed twice: " + key);
            }
        }
        return list;
    }

    private static List<JsonNode> jsonLines(String resource) {
        List<JsonNode> nodes = new ArrayList<>();
        try (InputStream in = WhatwgConformanceTest.class.getResourceAsStream(resource);
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    nodes.add(JSON.readTree(line));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return nodes;
    }

    private static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }
}
