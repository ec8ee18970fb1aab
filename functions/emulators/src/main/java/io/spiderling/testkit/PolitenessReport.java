package io.spiderling.testkit;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How polite a crawler was, judged only from what the sites saw: the requests they recorded and what they answered.
 * A pure function of those logs and of each site's declared rules, so it can be checked on hand-made logs.
 *
 * <ul>
 *   <li><b>Robots violations.</b> A request for a path the site's robots.txt disallows for our agent (by its declared
 *       prefixes, RFC 9309's plain prefix match; the farm writes no wildcards), and any request other than robots.txt
 *       itself before the site's robots.txt gave defined rules: a complete 2xx, or a 4xx other than 429 (RFC 9309:
 *       "unavailable", allow all). A redirect is not yet rules; 5xx, 429 and no answer leave them undefined.</li>
 *   <li><b>Duplicates.</b> A URL requested again after it got a final answer: a complete 2xx, 3xx or 4xx other than
 *       408 and 429. Retries after 5xx, 408, 429 or no answer are not duplicates. A robots path is one only while the
 *       copy its final answer gave is still fresh ({@link SiteRules#robotsFreshFor}).</li>
 *   <li><b>Rate.</b> The most requests one site received within any 1 s, counted on arrival times: for each request,
 *       those that arrived less than a second after it (a half-open window, so 10 requests exactly 100 ms apart are
 *       10 per second, not 11). More than the site allows is an excess.</li>
 * </ul>
 *
 * @param robotsViolations in arrival order
 * @param duplicates the repeated requests, in arrival order
 * @param load per site, in the order the sites were declared
 */
public record PolitenessReport(List<Violation> robotsViolations, List<Duplicate> duplicates,
        Map<String, SiteLoad> load) {

    private static final Duration WINDOW = Duration.ofSeconds(1);

    public PolitenessReport {
        robotsViolations = List.copyOf(robotsViolations);
        duplicates = List.copyOf(duplicates);
        load = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(load));
    }

    /**
     * What a site answered to one request.
     *
     * @param status the status sent; 0 when nothing was sent
     * @param complete whether the whole answer was sent (false for a site that went silent after the headers)
     */
    public record Answer(int status, boolean complete) {
        /** Nothing at all: the connection was accepted and never answered. */
        public static final Answer NONE = new Answer(0, false);

        public static Answer of(int status) {
            return new Answer(status, true);
        }

        /** Headers (and maybe some of the body) sent, then silence. */
        public static Answer stalled(int status) {
            return new Answer(status, false);
        }

        /** A complete answer that asking again would only repeat. */
        public boolean isFinal() {
            return complete && status >= 200 && status < 500 && status != 408 && status != 429;
        }

        /** A complete answer that defines robots.txt rules (a copy, or none: allow all). */
        boolean definesRules() {
            return complete && (status >= 200 && status < 300 || status >= 400 && status < 500 && status != 429);
        }

        /** {@code 200}, {@code none} or {@code stalled 200}, as the case tables write it. */
        @Override
        public String toString() {
            return status == 0 ? "none" : complete ? Integer.toString(status) : "stalled " + status;
        }

        /** Reads {@link #toString()}'s form back. */
        public static Answer parse(String text) {
            String t = text.strip();
            if (t.equals("none")) {
                return NONE;
            }
            return t.startsWith("stalled ") ? stalled(Integer.parseInt(t.substring(8).strip()))
                    : of(Integer.parseInt(t));
        }
    }

    /** One request a site recorded, with what it answered. */
    public record Exchange(RecordedRequest request, Answer answer) {
        public Exchange {
            Objects.requireNonNull(request, "request");
            Objects.requireNonNull(answer, "answer");
        }
    }

    /**
     * What one site declares.
     *
     * @param host the site's address, as its requests record it
     * @param robotsPaths {@code /robots.txt} and the paths it redirects to on the same site
     * @param disallowed path prefixes its robots.txt disallows for our agent
     * @param allowedPerSecond the requests per second the crawler was told it may send
     * @param robotsFreshFor how long a robots.txt answer stays fresh for the crawler (no Cache-Control: its maximum)
     */
    public record SiteRules(String host, List<String> robotsPaths, List<String> disallowed, int allowedPerSecond,
            Duration robotsFreshFor) {
        public SiteRules {
            Objects.requireNonNull(host, "host");
            robotsPaths = List.copyOf(robotsPaths);
            disallowed = List.copyOf(disallowed);
            Objects.requireNonNull(robotsFreshFor, "robotsFreshFor");
        }

        boolean isRobots(String path) {
            return robotsPaths.contains(path);
        }

        String disallowing(String path) {
            return disallowed.stream().filter(path::startsWith).findFirst().orElse(null);
        }
    }

    /** A request robots.txt forbade, or sent before robots.txt said anything. */
    public record Violation(String host, String path, Instant at, String why) {}

    /**
     * A request repeated after a final answer.
     *
     * @param answeredAt when the request that got the final answer arrived
     */
    public record Duplicate(String host, String path, int answeredStatus, Instant answeredAt, Instant againAt) {}

    /**
     * What one site received.
     *
     * @param maxInAnySecond the most requests that arrived within 1 s of each other
     * @param busiestFrom the arrival of the first request of the first such window; null without requests
     * @param first the first request's arrival; null without requests
     * @param last the last request's arrival; null without requests
     */
    public record SiteLoad(String host, int requests, int maxInAnySecond, Instant busiestFrom, int allowedPerSecond,
            Instant first, Instant last) {

        public boolean exceeded() {
            return maxInAnySecond > allowedPerSecond;
        }

        /** Requests per second between the first and the last request; 0 for fewer than two. */
        public double ratePerSecond() {
            if (requests < 2) {
                return 0;
            }
            double seconds = Duration.between(first, last).toNanos() / 1e9;
            return seconds <= 0 ? requests : (requests - 1) / seconds;
        }
    }

    /**
     * Judges the logs.
     *
     * @param exchanges every request the sites recorded with its answer; sorted here by arrival (stably)
     * @param sites the rules of every site that appears in {@code exchanges}
     * @throws IllegalArgumentException if a request is to a site not in {@code sites}
     */
    public static PolitenessReport from(List<Exchange> exchanges, List<SiteRules> sites) {
        Map<String, SiteRules> rules = new LinkedHashMap<>();
        sites.forEach(s -> rules.put(s.host(), s));
        List<Exchange> ordered = exchanges.stream()
                .sorted(Comparator.comparing(e -> e.request().receivedAt()))
                .toList();

        List<Violation> violations = new ArrayList<>();
        List<Duplicate> duplicates = new ArrayList<>();
        Map<String, Boolean> rulesKnown = new HashMap<>();
        Map<String, Exchange> finalAnswer = new HashMap<>();
        Map<String, List<Instant>> arrivals = new LinkedHashMap<>();
        rules.keySet().forEach(host -> arrivals.put(host, new ArrayList<>()));

        for (Exchange e : ordered) {
            RecordedRequest r = e.request();
            SiteRules site = rules.get(r.host());
            if (site == null) {
                throw new IllegalArgumentException("request to " + r.host() + r.path() + ", a site with no rules");
            }
            arrivals.get(r.host()).add(r.receivedAt());
            boolean robots = site.isRobots(r.path());
            if (!robots) {
                String prefix = site.disallowing(r.path());
                if (prefix != null) {
                    violations.add(new Violation(r.host(), r.path(), r.receivedAt(),
                            "disallowed by robots.txt (" + prefix + ")"));
                } else if (!rulesKnown.getOrDefault(r.host(), false)) {
                    violations.add(new Violation(r.host(), r.path(), r.receivedAt(),
                            "requested before robots.txt gave rules"));
                }
            } else if (e.answer().definesRules()) {
                rulesKnown.put(r.host(), true);
            }

            String key = r.host() + " " + r.path();
            Exchange before = finalAnswer.get(key);
            boolean stale = robots && before != null && !r.receivedAt().isBefore(
                    before.request().receivedAt().plus(site.robotsFreshFor()));
            if (before != null && !stale) {
                duplicates.add(new Duplicate(r.host(), r.path(), before.answer().status(),
                        before.request().receivedAt(), r.receivedAt()));
            } else if (e.answer().isFinal()) {
                finalAnswer.put(key, e);
            } else if (stale) {
                finalAnswer.remove(key);
            }
        }

        Map<String, SiteLoad> load = new LinkedHashMap<>();
        arrivals.forEach((host, times) -> load.put(host, load(host, times, rules.get(host).allowedPerSecond())));
        return new PolitenessReport(violations, duplicates, load);
    }

    /** The load of a site that received requests at {@code times} (in order), against {@code allowed} a second. */
    public static SiteLoad load(String host, List<Instant> times, int allowed) {
        if (times.isEmpty()) {
            return new SiteLoad(host, 0, 0, null, allowed, null, null);
        }
        int max = 0;
        Instant busiest = null;
        int end = 0;
        for (int start = 0; start < times.size(); start++) {
            Instant limit = times.get(start).plus(WINDOW);
            while (end < times.size() && times.get(end).isBefore(limit)) {
                end++;
            }
            if (end - start > max) {
                max = end - start;
                busiest = times.get(start);
            }
        }
        return new SiteLoad(host, times.size(), max, busiest, allowed, times.getFirst(), times.getLast());
    }

    /** Sites that received more requests within some second than they allow. */
    public List<SiteLoad> rateExcesses() {
        return load.values().stream().filter(SiteLoad::exceeded).toList();
    }

    /** No violation, no duplicate, no excess. */
    public boolean clean() {
        return robotsViolations.isEmpty() && duplicates.isEmpty() && rateExcesses().isEmpty();
    }

    /**
     * The report as text: one line per site (requests, the busiest second against the allowed rate, the rate between
     * its first and last request), then every violation and duplicate. {@code names} labels hosts, such as
     * {@code 127.0.0.2 rules}; hosts without a name are printed bare.
     */
    public String format(Map<String, String> names) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "robots violations: %d, duplicate fetches: %d, sites over their rate:"
                + " %d%n", robotsViolations.size(), duplicates.size(), rateExcesses().size()));
        out.append(String.format(Locale.ROOT, "%-28s %8s %14s %9s %10s%n", "site", "requests", "max in any 1 s",
                "allowed", "req/s"));
        load.values().forEach(l -> out.append(String.format(Locale.ROOT, "%-28s %8d %14d %9d %10.2f%s%n",
                names.getOrDefault(l.host(), l.host()), l.requests(), l.maxInAnySecond(), l.allowedPerSecond(),
                l.ratePerSecond(), l.exceeded() ? "  OVER (from " + l.busiestFrom() + ")" : "")));
        robotsViolations.forEach(v -> out.append(String.format(Locale.ROOT, "violation: %s %s at %s: %s%n",
                names.getOrDefault(v.host(), v.host()), v.path(), v.at(), v.why())));
        duplicates.forEach(d -> out.append(String.format(Locale.ROOT,
                "duplicate: %s %s at %s, already answered %d at %s%n", names.getOrDefault(d.host(), d.host()),
                d.path(), d.againAt(), d.answeredStatus(), d.answeredAt())));
        return out.toString();
    }
}
