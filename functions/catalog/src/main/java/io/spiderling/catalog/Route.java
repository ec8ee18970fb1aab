package io.spiderling.catalog;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One HTTP route: a method and a path template whose {@code {name}} segments match any one non-empty segment, as API
 * Gateway's HTTP API matches them.
 */
public record Route(String method, String path, Operation operation) {

    private static final Pattern METHOD = Pattern.compile("GET|POST|PUT|PATCH|DELETE");
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._-]+|\\{[a-z][A-Za-z0-9]*}");

    public Route {
        Objects.requireNonNull(operation, "operation");
        if (!METHOD.matcher(method).matches()) {
            throw new IllegalArgumentException("unsupported method " + method);
        }
        if (!path.startsWith("/") || segments(path).stream().anyMatch(s -> !SEGMENT.matcher(s).matches())) {
            throw new IllegalArgumentException("bad path template " + path);
        }
    }

    /** API Gateway's route key, e.g. {@code GET /batches/{id}}. */
    public String routeKey() {
        return method + " " + path;
    }

    public String function() {
        return operation.function();
    }

    /** The path parameters when {@code method} and {@code rawPath} match this route. */
    public Optional<Map<String, String>> match(String method, String rawPath) {
        if (!this.method.equals(method) || rawPath == null) {
            return Optional.empty();
        }
        List<String> template = segments(path);
        List<String> actual = segments(rawPath);
        if (template.size() != actual.size()) {
            return Optional.empty();
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < template.size(); i++) {
            String t = template.get(i);
            String a = actual.get(i);
            if (t.startsWith("{")) {
                if (a.isEmpty()) {
                    return Optional.empty();
                }
                parameters.put(t.substring(1, t.length() - 1), a);
            } else if (!t.equals(a)) {
                return Optional.empty();
            }
        }
        return Optional.of(Map.copyOf(parameters));
    }

    private static List<String> segments(String path) {
        List<String> segments = new ArrayList<>(List.of(path.substring(1).split("/", -1)));
        if (segments.size() == 1 && segments.get(0).isEmpty()) {
            segments.clear();
        }
        return segments;
    }
}
