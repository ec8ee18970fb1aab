package io.spiderling.core.extract;

import io.spiderling.core.extract.PageDirectives.Directive;
import io.spiderling.core.extract.PageDirectives.Source;
import io.spiderling.core.extract.PageDirectives.UnavailableAfter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * Reads a page's {@code X-Robots-Tag} header values and {@code <meta name="robots">} tags into the
 * {@link PageDirectives} that apply to one agent. Pure; never throws on what a page writes.
 *
 * <p>The syntax is Google's (https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag, "Robots meta
 * tag, data-nosnippet, and X-Robots-Tag specifications"), with MDN's description of the header
 * (https://developer.mozilla.org/docs/Web/HTTP/Headers/X-Robots-Tag):
 * <ul>
 *   <li>a value is a comma-separated list of directives; names and values are case-insensitive;</li>
 *   <li>a meta tag named {@code robots} speaks to every crawler, one named after an agent ({@code googlebot},
 *       {@code spiderling}) to that agent only;</li>
 *   <li>in the header, an optional {@code <bot-name>:} names the agent that the directives after it apply to, up to the
 *       next bot name; directives before any bot name apply to every crawler. So
 *       {@code noarchive, googlebot: noindex, nofollow} asks every crawler for {@code noarchive} and Googlebot alone
 *       for the other two;</li>
 *   <li>several headers or tags add up: "if competing directives are encountered, we will use the most restrictive";
 *       here every directive found counts ({@link PageDirectives#union});</li>
 *   <li>{@code none} is {@code noindex, nofollow}; {@code all}, {@code index} and {@code follow} are the defaults and
 *       change nothing; {@code nocache}, Bing's name for {@code noarchive}, counts as it;</li>
 *   <li>{@code unavailable_after: <date>} takes a date in "a widely adopted format", read by {@link DirectiveDates};
 *       since RFC 850 and RFC 1123 dates hold a comma after the weekday, a value that is only a weekday is joined with
 *       the list entry after it.</li>
 * </ul>
 * Other directives that look like one ({@code noimageindex}, {@code max-snippet:20}) are kept as written, in lower
 * case; anything else (a name with spaces, markup) is ignored.
 */
public final class PageDirectivesParser {

    /** The header's name as the fetch record keeps it. */
    public static final String HEADER = "x-robots-tag";
    /** The meta name that speaks to every crawler. */
    static final String GENERIC_META_NAME = "robots";
    /** How much of one header value or meta content is read: real ones are a few dozen characters. */
    static final int MAX_VALUE_LENGTH = 4096;
    /** How many header values and robots meta tags are read: real pages have one or two. */
    static final int MAX_VALUES = 32;

    /** The directives that take a value after a colon, which must not be read as a bot name. */
    private static final Set<String> VALUED = Set.of("unavailable_after", "max-snippet", "max-image-preview",
            "max-video-preview");
    private static final Set<String> DEFAULTS = Set.of("all", "index", "follow");
    /** The directives read by name, which a bot name never is. */
    private static final Set<String> NAMED = Set.of("noindex", "nofollow", "noarchive", "nosnippet", "nocache",
            "none", "all", "index", "follow");
    /** A user agent token (RFC 9309's product token, with digits and dots as real crawler names have). */
    private static final Pattern AGENT = Pattern.compile("[a-z0-9_.-]+");
    private static final Pattern DIRECTIVE_NAME = Pattern.compile("[a-z][a-z0-9_-]*");
    private static final Pattern WEEKDAY = Pattern.compile(
            "(?:mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?", Pattern.CASE_INSENSITIVE);

    private PageDirectivesParser() {}

    /**
     * @param headerValues the page's {@code X-Robots-Tag} values, one per header line (or joined by
     *     {@link #joinHeaderValues})
     * @param document the page's HTML, or {@code null} for a body that is not HTML
     * @param agent the agent token whose directives apply, e.g. {@code spiderling}; matched ignoring case
     * @return the union of the header's and the tags' directives for {@code agent}
     */
    public static PageDirectives parse(List<String> headerValues, Document document, String agent) {
        PageDirectives meta = document == null ? PageDirectives.none() : fromMeta(document, agent);
        return fromHeaders(headerValues, agent).union(meta);
    }

    /** The directives of the {@code X-Robots-Tag} values that apply to {@code agent}. */
    public static PageDirectives fromHeaders(List<String> values, String agent) {
        String token = agentToken(agent);
        PageDirectives.Builder found = PageDirectives.builder();
        values.stream().filter(Objects::nonNull).limit(MAX_VALUES)
                .forEach(value -> readList(value, token, Source.HEADER, found));
        return found.build();
    }

    /** {@link #fromHeaders} of one stored value; {@code null} (no header) is none. */
    public static PageDirectives fromHeader(String value, String agent) {
        return value == null ? PageDirectives.none() : fromHeaders(List.of(value), agent);
    }

    /** The directives of the page's meta tags named {@code robots} or after {@code agent}. */
    public static PageDirectives fromMeta(Document document, String agent) {
        String token = agentToken(agent);
        PageDirectives.Builder found = PageDirectives.builder();
        int read = 0;
        for (Element meta : document.getElementsByTag("meta")) {
            String name = meta.attr("name").strip().toLowerCase(Locale.ROOT);
            if (!name.equals(GENERIC_META_NAME) && !name.equals(token)) {
                continue;
            }
            if (read++ == MAX_VALUES) {
                break;
            }
            readList(meta.attr("content"), token, Source.META, found);
        }
        return found.build();
    }

    /**
     * Several header lines as one value, the way the fetch record keeps a header: joined by {@code ", "}, with the
     * lines that name no bot first. Joined in any other order, a generic line after {@code googlebot: noindex} would
     * read as Googlebot's.
     */
    public static String joinHeaderValues(List<String> values) {
        List<String> generic = new ArrayList<>();
        List<String> named = new ArrayList<>();
        for (String value : values) {
            (namesAnAgent(value) ? named : generic).add(value.strip());
        }
        generic.addAll(named);
        return String.join(", ", generic);
    }

    private static boolean namesAnAgent(String value) {
        for (String entry : value.split(",")) {
            if (botName(entry.strip()) != null) {
                return true;
            }
        }
        return false;
    }

    private static String agentToken(String agent) {
        return Objects.requireNonNull(agent, "agent").strip().toLowerCase(Locale.ROOT);
    }

    /**
     * Reads one comma-separated list. Its entries before any bot name apply: a header line without one speaks to
     * every crawler, and a tag is read only when named {@code robots} or after the agent.
     */
    private static void readList(String value, String agent, Source source, PageDirectives.Builder found) {
        String[] entries = (value.length() > MAX_VALUE_LENGTH ? value.substring(0, MAX_VALUE_LENGTH) : value)
                .split(",");
        boolean forAgent = true;
        for (int i = 0; i < entries.length; i++) {
            String entry = entries[i].strip();
            String bot = botName(entry);
            if (bot != null) {
                forAgent = bot.equals(agent);
                entry = entry.substring(entry.indexOf(':') + 1).strip();
            }
            if (isWeekdayOnlyDate(entry) && i + 1 < entries.length) {
                entry = entry + ", " + entries[++i].strip();
            }
            if (forAgent && !entry.isEmpty()) {
                directive(entry, source, found);
            }
        }
    }

    /** The bot name an entry starts with ({@code googlebot: noindex}), lower case; {@code null} when none. */
    private static String botName(String entry) {
        int colon = entry.indexOf(':');
        if (colon <= 0) {
            return null;
        }
        String name = entry.substring(0, colon).strip().toLowerCase(Locale.ROOT);
        return VALUED.contains(name) || NAMED.contains(name) || !AGENT.matcher(name).matches() ? null : name;
    }

    /** {@code unavailable_after: Friday}: the rest of the date came after the comma. */
    private static boolean isWeekdayOnlyDate(String entry) {
        int colon = entry.indexOf(':');
        return colon > 0 && entry.substring(0, colon).strip().equalsIgnoreCase("unavailable_after")
                && WEEKDAY.matcher(entry.substring(colon + 1).strip()).matches();
    }

    private static void directive(String entry, Source source, PageDirectives.Builder found) {
        int colon = entry.indexOf(':');
        String name = (colon < 0 ? entry : entry.substring(0, colon)).strip().toLowerCase(Locale.ROOT);
        String value = colon < 0 ? "" : entry.substring(colon + 1).strip();
        if (!DIRECTIVE_NAME.matcher(name).matches()) {
            return; // not a directive: markup, a sentence, a name with spaces
        }
        found.source(source);
        switch (name) {
            case "noindex", "nofollow", "noarchive", "nosnippet" ->
                    found.directive(Directive.fromWireName(name).orElseThrow());
            case "nocache" -> found.directive(Directive.NOARCHIVE);
            case "none" -> found.directive(Directive.NOINDEX).directive(Directive.NOFOLLOW);
            case "unavailable_after" -> {
                if (!value.isEmpty()) {
                    found.unavailableAfter(UnavailableAfter.of(value));
                }
            }
            default -> {
                if (!DEFAULTS.contains(name)) {
                    found.other(colon < 0 ? name : name + ":" + value.toLowerCase(Locale.ROOT));
                }
            }
        }
    }
}
