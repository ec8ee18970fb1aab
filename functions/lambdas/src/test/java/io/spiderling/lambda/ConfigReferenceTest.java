package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.ConfigKey;
import io.spiderling.catalog.ConfigKeys;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code application.properties} is the reference for every key: each key declared in code has its comment and its
 * default (or a commented example) there, nothing else is there, and every default is a value its key takes.
 */
class ConfigReferenceTest {

    /** A key line, set ({@code key=value}) or shown commented out ({@code #key=example}); no profile prefix. */
    private static final Pattern KEY_LINE = Pattern.compile("^(#?)(spiderling\\.[a-z0-9.-]+)=(.*)$");

    @Test
    void reference_whenRead_holdsEveryDeclaredKeyAndNoOther() throws IOException {
        Map<String, Optional<String>> lines = keyLines();
        Set<String> declared = ConfigKeys.all().stream().map(ConfigKey::name)
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(declared, new TreeSet<>(lines.keySet()));
    }

    @Test
    void reference_whenADefaultIsSet_isAValueItsKeyTakes() throws IOException {
        Map<String, Optional<String>> lines = keyLines();
        for (ConfigKey<?> key : ConfigKeys.all()) {
            Optional<String> value = lines.get(key.name());
            if (value != null && value.isPresent() && !value.get().startsWith("${")) {
                key.read(value); // throws, naming the key, for a value it cannot take
            }
        }
    }

    @Test
    void reference_whenEveryDefaultApplies_theCatalogIsConsistent() throws IOException {
        String lostAfter = keyLines().get(ConfigKeys.FRONTIER_LOST_AFTER.name()).orElseThrow();
        assertEquals(List.of(), Catalog.problems(ConfigKeys.FRONTIER_LOST_AFTER.read(Optional.of(lostAfter))));
    }

    /** Every key line: its value when set, empty when only shown commented out. */
    private static Map<String, Optional<String>> keyLines() throws IOException {
        String text;
        try (InputStream in = Pipeline.class.getClassLoader().getResourceAsStream("application.properties")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Map<String, Optional<String>> keys = new LinkedHashMap<>();
        for (String line : text.lines().toList()) {
            Matcher m = KEY_LINE.matcher(line.strip());
            if (m.matches()) {
                Optional<String> value = m.group(1).isEmpty() ? Optional.of(m.group(3)) : Optional.empty();
                keys.merge(m.group(2), value, (a, b) -> a.isPresent() ? a : b);
            }
        }
        return keys;
    }
}
