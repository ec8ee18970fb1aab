package io.spiderling.infra;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * CDK context (values from {@code -c key=value} or cdk.json), read with errors that name the key and say what it
 * takes. Values from the command line are strings; cdk.json may hold numbers and booleans, so every value is read
 * through its text.
 */
final class AppContext {

    private final Function<String, Object> lookup;

    AppContext(Function<String, Object> lookup) {
        this.lookup = lookup;
    }

    /** The value, if set and not blank. */
    Optional<String> text(String key) {
        return Optional.ofNullable(lookup.apply(key)).map(Object::toString).map(String::strip)
                .filter(value -> !value.isEmpty());
    }

    String required(String key, String what) {
        return text(key).orElseThrow(() -> problem(key, "is required: " + what));
    }

    String text(String key, String fallback) {
        return text(key).orElse(fallback);
    }

    /** A comma-separated list, blanks dropped. */
    Optional<List<String>> list(String key) {
        return text(key).map(value -> Arrays.stream(value.split(",")).map(String::strip)
                .filter(item -> !item.isEmpty()).toList());
    }

    /** A path to a file that must exist. */
    Optional<Path> file(String key) {
        return text(key).map(value -> {
            Path path = Path.of(value);
            if (!Files.isRegularFile(path)) {
                throw problem(key, "names no file: " + path.toAbsolutePath());
            }
            return path;
        });
    }

    Optional<Integer> integer(String key, int min, int max) {
        return text(key).map(value -> {
            int parsed;
            try {
                parsed = Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw problem(key, "must be a whole number, was '" + value + "'");
            }
            if (parsed < min || parsed > max) {
                throw problem(key, "must be " + min + "-" + max + ", was " + parsed);
            }
            return parsed;
        });
    }

    int integer(String key, int fallback, int min, int max) {
        return integer(key, min, max).orElse(fallback);
    }

    double positiveNumber(String key, double fallback) {
        return text(key).map(value -> {
            double parsed;
            try {
                parsed = Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw problem(key, "must be a number, was '" + value + "'");
            }
            if (!(parsed > 0) || Double.isInfinite(parsed)) {
                throw problem(key, "must be positive, was " + value);
            }
            return parsed;
        }).orElse(fallback);
    }

    boolean bool(String key, boolean fallback) {
        return text(key).map(value -> switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw problem(key, "must be true or false, was '" + value + "'");
        }).orElse(fallback);
    }

    static IllegalArgumentException problem(String key, String what) {
        return new IllegalArgumentException("-c " + key + " " + what);
    }
}
