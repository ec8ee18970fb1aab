package io.spiderling.core.url;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The query parameters {@link UrlNormalizer} removes because they say how a visitor arrived, not which page they want:
 * the same page reached from a newsletter and from an ad should be one URL, fetched once.
 *
 * <p>Written as plain strings so configuration can carry it: {@code "utm_*,gclid,fbclid"}. An entry ending in
 * {@code *} removes every parameter whose name starts with the rest (the {@code *} is the only wildcard and only
 * allowed last); any other entry removes the parameter with exactly that name. Matching ignores case, and compares
 * with the name as it appears in the normalized URL, after unreserved percent-escapes are decoded
 * ({@code utm%5Fsource} is {@code utm_source}). Entries may use only the characters a normalized name keeps
 * unescaped ({@code A-Z a-z 0-9 - . _ ~}), so an entry can never silently fail to match.
 *
 * <p>The empty configuration, {@link #none()}, removes nothing.
 *
 * @param names exact names, lower-case, sorted, without duplicates
 * @param prefixes name prefixes (entries without their {@code *}), lower-case, sorted, without duplicates
 */
public record TrackingParameters(List<String> names, List<String> prefixes) {

    private static final Pattern ENTRY = Pattern.compile("[A-Za-z0-9._~-]+\\*?");
    private static final String WILDCARD = "*";

    private static final TrackingParameters NONE = new TrackingParameters(List.of(), List.of());

    /**
     * Ad and analytics click identifiers and campaign tags, each of which only attributes a visit:
     * <ul>
     *   <li>{@code utm_*}: Google Analytics / Urchin campaign tags (source, medium, campaign, term, content, id, …);</li>
     *   <li>{@code gclid}, {@code dclid}, {@code gbraid}, {@code wbraid}: Google Ads and Campaign Manager clicks;</li>
     *   <li>{@code _ga}, {@code _gl}: Google Analytics cross-domain linker;</li>
     *   <li>{@code fbclid}: Facebook clicks; {@code igshid}: Instagram shares; {@code ref_src}: Twitter/X embeds;</li>
     *   <li>{@code msclkid}: Microsoft Advertising clicks; {@code yclid}: Yandex Direct clicks;</li>
     *   <li>{@code mc_cid}, {@code mc_eid}: Mailchimp campaign and recipient.</li>
     * </ul>
     */
    private static final TrackingParameters DEFAULTS = parse(
            "utm_*,gclid,dclid,gbraid,wbraid,_ga,_gl,fbclid,igshid,ref_src,msclkid,yclid,mc_cid,mc_eid");

    public TrackingParameters {
        names = canonical(names, "names");
        prefixes = canonical(prefixes, "prefixes");
    }

    /** Removes nothing. */
    public static TrackingParameters none() {
        return NONE;
    }

    /** What {@link UrlNormalizer#create()} removes: {@code utm_*} and the click identifiers listed above. */
    public static TrackingParameters defaults() {
        return DEFAULTS;
    }

    /**
     * Parses a comma-separated list such as {@code "utm_*, gclid"}. Blank entries are ignored, so {@code ""} is
     * {@link #none()}.
     *
     * @throws IllegalArgumentException if an entry is not a parameter name, optionally followed by {@code *}
     */
    public static TrackingParameters parse(String commaSeparated) {
        Objects.requireNonNull(commaSeparated, "commaSeparated");
        return of(List.of(commaSeparated.split(",", -1)));
    }

    /**
     * Builds the configuration from entries in the form {@link #parse(String)} reads, one per element.
     *
     * @throws IllegalArgumentException if an entry is not a parameter name, optionally followed by {@code *}
     */
    public static TrackingParameters of(Collection<String> entries) {
        List<String> names = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        for (String raw : entries) {
            String entry = Objects.requireNonNull(raw, "entry").strip();
            if (entry.isEmpty()) {
                continue;
            }
            if (!ENTRY.matcher(entry).matches()) {
                throw new IllegalArgumentException("not a tracking parameter name or prefix* (allowed: A-Z a-z 0-9 "
                        + "- . _ ~, and * only at the end): '" + entry + "'");
            }
            if (entry.endsWith(WILDCARD)) {
                prefixes.add(entry.substring(0, entry.length() - 1));
            } else {
                names.add(entry);
            }
        }
        return names.isEmpty() && prefixes.isEmpty() ? NONE : new TrackingParameters(names, prefixes);
    }

    /** True if this configuration removes nothing. */
    public boolean isEmpty() {
        return names.isEmpty() && prefixes.isEmpty();
    }

    /** True if a parameter with this name, as it appears in a normalized URL, is to be removed. */
    public boolean matches(String parameterName) {
        for (String prefix : prefixes) {
            if (parameterName.regionMatches(true, 0, prefix, 0, prefix.length())) {
                return true;
            }
        }
        return !names.isEmpty() && names.contains(parameterName.toLowerCase(Locale.ROOT));
    }

    /** The configuration in the form {@link #parse(String)} reads: prefixes first, then names. */
    @Override
    public String toString() {
        List<String> entries = new ArrayList<>(prefixes.size() + names.size());
        prefixes.forEach(prefix -> entries.add(prefix + WILDCARD));
        entries.addAll(names);
        return String.join(",", entries);
    }

    private static List<String> canonical(List<String> values, String what) {
        Objects.requireNonNull(values, what);
        TreeSet<String> sorted = new TreeSet<>();
        for (String value : values) {
            // a prefix without characters would match every parameter: certainly a configuration mistake
            if (value == null || !ENTRY.matcher(value).matches() || value.endsWith(WILDCARD)) {
                throw new IllegalArgumentException("invalid tracking parameter " + what + " entry: '" + value + "'");
            }
            sorted.add(value.toLowerCase(Locale.ROOT));
        }
        return List.copyOf(sorted);
    }
}
