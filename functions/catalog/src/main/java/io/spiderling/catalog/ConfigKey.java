package io.spiderling.catalog;

import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One configuration key: its name, how its text is read, and what it means to leave it unset. Keys are declared once,
 * in {@link ConfigKeys}; each has its comment (and its default, if it has one) in the functions'
 * {@code application.properties}. On Lambda a key travels as an environment variable named by {@link #envName()}.
 *
 * <p>Instances compare by name.
 *
 * @param <T> the value's type; {@code Optional<…>} for keys that may be left unset
 */
public final class ConfigKey<T> {

    private static final Pattern NAME = Pattern.compile("spiderling(\\.[a-z0-9]+(-[a-z0-9]+)*)+");
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)?");

    private final String name;
    private final Function<String, T> parser;
    private final Optional<T> whenUnset;

    private ConfigKey(String name, Function<String, T> parser, Optional<T> whenUnset) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a spiderling key name: " + name);
        }
        this.name = name;
        this.parser = parser;
        this.whenUnset = whenUnset;
    }

    static ConfigKey<String> string(String name) {
        return new ConfigKey<>(name, text -> text, Optional.empty());
    }

    static ConfigKey<Integer> integer(String name) {
        return new ConfigKey<>(name, text -> Integer.valueOf(text.strip()), Optional.empty());
    }

    static ConfigKey<Long> longValue(String name) {
        return new ConfigKey<>(name, text -> Long.valueOf(text.strip()), Optional.empty());
    }

    static ConfigKey<Boolean> bool(String name) {
        return new ConfigKey<>(name, ConfigKey::parseBoolean, Optional.empty());
    }

    static ConfigKey<Duration> duration(String name) {
        return new ConfigKey<>(name, ConfigKey::parseDuration, Optional.empty());
    }

    /** A comma-separated list; blanks around items are dropped, and so are empty items. */
    static ConfigKey<List<String>> list(String name) {
        return new ConfigKey<>(name, ConfigKey::parseList, Optional.empty());
    }

    /** {@link #list}, empty when unset. */
    static ConfigKey<List<String>> optionalList(String name) {
        return new ConfigKey<>(name, ConfigKey::parseList, Optional.of(List.of()));
    }

    /** One of a fixed set of values: the constants of {@code choices}, written by their wire names. */
    static <E extends Enum<E> & ConfigChoice> ConfigKey<E> oneOf(String name, Class<E> choices) {
        List<E> all = List.of(choices.getEnumConstants());
        return new ConfigKey<>(name, text -> {
            String value = text.strip();
            return all.stream().filter(choice -> choice.wireName().equals(value)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("must be one of " + String.join(", ",
                            all.stream().map(ConfigChoice::wireName).toList()) + ", was '" + value + "'"));
        }, Optional.empty());
    }

    static ConfigKey<Optional<String>> optional(String name) {
        return new ConfigKey<>(name, text -> text.isBlank() ? Optional.empty() : Optional.of(text.strip()),
                Optional.of(Optional.empty()));
    }

    static ConfigKey<Optional<URI>> optionalUri(String name) {
        return new ConfigKey<>(name, text -> text.isBlank() ? Optional.empty() : Optional.of(URI.create(text.strip())),
                Optional.of(Optional.empty()));
    }

    public String name() {
        return name;
    }

    /**
     * The environment variable that sets this key, by MicroProfile Config's rule: every character that is not a
     * letter or digit becomes {@code _}, then upper case ({@code spiderling.fetch.user-agent} →
     * {@code SPIDERLING_FETCH_USER_AGENT}).
     */
    public String envName() {
        return name.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    /** Whether a deployment may leave the key unset (and nothing defaults it). */
    public boolean optional() {
        return whenUnset.isPresent();
    }

    /**
     * The value of {@code text}, or of an unset key when {@code text} is empty.
     *
     * @throws IllegalArgumentException naming the key, for a value it cannot take or a required key left unset
     */
    public T read(Optional<String> text) {
        if (text.isEmpty()) {
            return whenUnset.orElseThrow(() -> new IllegalArgumentException(
                    name + " is not set (environment variable " + envName() + ")"));
        }
        try {
            return parser.apply(text.get());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
    }

    private static Boolean parseBoolean(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("must be true or false, was '" + text.strip() + "'");
        };
    }

    /**
     * Quarkus's duration syntax, so that {@code application.properties} reads the same everywhere: a whole number
     * with an optional unit ({@code ms}, {@code s}, {@code m}, {@code h}, {@code d}; seconds without one), or an
     * ISO-8601 duration ({@code PT1H30M}).
     */
    static Duration parseDuration(String text) {
        String value = text.strip();
        Matcher simple = DURATION.matcher(value);
        if (simple.matches()) {
            long amount = Long.parseLong(simple.group(1));
            return switch (Objects.requireNonNullElse(simple.group(2), "s")) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            };
        }
        try {
            return Duration.parse(value);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + value + "' is not a duration (say 30s, 5m, 1h or PT1H)");
        }
    }

    private static List<String> parseList(String text) {
        return Arrays.stream(text.split(",")).map(String::strip).filter(item -> !item.isEmpty()).toList();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ConfigKey<?> key && key.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
