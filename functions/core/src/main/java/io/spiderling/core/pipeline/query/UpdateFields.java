package io.spiderling.core.pipeline.query;

import io.spiderling.core.port.UrlStore;
import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * {@code PATCH /urls/fields}: Aragog's per-application metadata. Applications add, replace or remove named fields on a
 * URL's record a few at a time; the extractor keeps its own attributes and never touches these.
 *
 * <p>The fields go to the record the URL resolves to (its canonical record when it is an alias, as reads do), or to
 * the URL's own row when it is not known yet. Each write is conditional on the version read, so two applications
 * patching different fields at once both land; the size limits are checked on the merged result.
 */
public final class UpdateFields {

    public static final int MAX_FIELDS = 50;
    public static final int MAX_VALUE_BYTES = 4096;
    public static final int MAX_TOTAL_BYTES = 32 * 1024;
    /** Letters, digits and {@code _ . : -}, starting with a letter or digit; 64 at most. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}");

    private static final int ATTEMPTS = 5;

    private final UrlNormalizer normalizer;
    private final UrlStore urls;

    public UpdateFields(UrlNormalizer normalizer, UrlStore urls) {
        this.normalizer = normalizer;
        this.urls = urls;
    }

    public sealed interface Result {
        /** @param url the URL whose record now holds {@code fields} (the canonical record for an alias) */
        record Updated(NormalizedUrl url, Map<String, String> fields) implements Result {}

        record Invalid(String reason) implements Result {}

        /** Other writers kept changing the fields; the client may retry. */
        record Conflict(String reason) implements Result {}
    }

    /**
     * @param patch field name to its new value as JSON text, or empty to remove the field
     */
    public Result patch(String rawUrl, Map<String, Optional<String>> patch) {
        NormalizedUrl url;
        switch (normalizer.normalize(rawUrl)) {
            case NormalizationResult.Rejected r -> {
                return new Result.Invalid("invalid url: " + r.reason());
            }
            case NormalizationResult.Accepted a -> url = a.url();
        }
        Optional<String> problem = checkPatch(patch);
        if (problem.isPresent()) {
            return new Result.Invalid(problem.get());
        }
        NormalizedUrl target = resolve(url);
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Optional<UrlStore.UrlRecord> row = urls.find(target.urlHash());
            Map<String, String> merged = new TreeMap<>(row.map(UrlStore.UrlRecord::fields).orElse(Map.of()));
            patch.forEach((name, value) -> value.ifPresentOrElse(v -> merged.put(name, v), () -> merged.remove(name)));
            Optional<String> tooLarge = checkTotal(merged);
            if (tooLarge.isPresent()) {
                return new Result.Invalid(tooLarge.get());
            }
            if (urls.replaceFields(target.urlHash(), target.value(), merged,
                    row.map(UrlStore.UrlRecord::fieldsVersion).orElse(0L))) {
                return new Result.Updated(target, Map.copyOf(merged));
            }
        }
        return new Result.Conflict("the fields of " + target.value() + " changed " + ATTEMPTS
                + " times while this patch was applied; try again");
    }

    private NormalizedUrl resolve(NormalizedUrl url) {
        return urls.find(url.urlHash()).flatMap(UrlStore.UrlRecord::aliasOf).map(NormalizedUrl::parse)
                .filter(t -> urls.find(t.urlHash()).filter(UrlStore.UrlRecord::known).isPresent())
                .orElse(url);
    }

    /** The checks that need no stored state: names, value sizes and the number of fields in one patch. */
    static Optional<String> checkPatch(Map<String, Optional<String>> patch) {
        if (patch.isEmpty()) {
            return Optional.of("no fields to change");
        }
        if (patch.size() > MAX_FIELDS) {
            return Optional.of("at most " + MAX_FIELDS + " fields per patch, not " + patch.size());
        }
        for (Map.Entry<String, Optional<String>> e : patch.entrySet()) {
            if (!NAME.matcher(e.getKey()).matches()) {
                return Optional.of("invalid field name \"" + abbreviate(e.getKey())
                        + "\": letters, digits, _ . : - (starting with a letter or digit), at most 64");
            }
            int bytes = e.getValue().map(v -> v.getBytes(StandardCharsets.UTF_8).length).orElse(0);
            if (bytes > MAX_VALUE_BYTES) {
                return Optional.of("field \"" + e.getKey() + "\" is " + bytes + " bytes; at most " + MAX_VALUE_BYTES);
            }
        }
        return Optional.empty();
    }

    static Optional<String> checkTotal(Map<String, String> fields) {
        if (fields.size() > MAX_FIELDS) {
            return Optional.of("a URL holds at most " + MAX_FIELDS + " fields; this patch would make "
                    + fields.size());
        }
        long total = fields.entrySet().stream().mapToLong(e -> e.getKey().length()
                + e.getValue().getBytes(StandardCharsets.UTF_8).length).sum();
        if (total > MAX_TOTAL_BYTES) {
            return Optional.of("a URL's fields hold at most " + MAX_TOTAL_BYTES + " bytes; this patch would make "
                    + total);
        }
        return Optional.empty();
    }

    private static String abbreviate(String s) {
        return s.length() <= 70 ? s : s.substring(0, 70) + "…";
    }
}
