package io.spiderling.infra;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Construct ids from catalog names, so the template's logical ids read like the catalog ({@code fetch-dlq} → FetchDlq). */
final class Names {

    private Names() {}

    static String constructId(String catalogName) {
        return Arrays.stream(catalogName.split("[^A-Za-z0-9]+"))
                .filter(part -> !part.isEmpty())
                .map(part -> part.substring(0, 1).toUpperCase(Locale.ROOT) + part.substring(1))
                .collect(Collectors.joining());
    }
}
