package io.spiderling.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Deterministic URL sets for the benchmarks. The same seed always gives the same strings, so runs on different days
 * (and before and after a change to the normalizer) measure the same work.
 */
final class UrlCorpus {

    static final long SEED = 20261122L;

    private static final String[] TLDS = {"com", "org", "net", "de", "co.uk", "io", "fr", "com.au"};
    private static final String[] WORDS = {"news", "articles", "products", "blog", "2026", "category", "item", "docs",
        "about", "search", "en", "archive", "tag", "user", "static", "help", "p", "shop"};
    private static final String[] PARAMS = {"id", "page", "sort", "q", "lang", "ref", "color", "size"};
    private static final String[] TRACKING = {"utm_source=newsletter", "utm_medium=email",
        "utm_campaign=spring_sale_2026", "utm_content=hero", "gclid=Cj0KCQiA5rGuBhCnARIsAN11vgRLM",
        "fbclid=IwAR2xQ9Z7kY", "mc_eid=5f3a9c1d"};
    /** Percent-escapes as clients send them: of unreserved characters, of UTF-8 bytes, of reserved ones. */
    private static final String[] ESCAPED = {"%7Euser", "caf%C3%A9", "a%20b", "%41%42c", "x%2Fy", "%e2%82%ac"};
    /** Characters that must be escaped but often are not. */
    private static final String[] RAW = {"a b", "café", "x|y", "ü", "\"q\""};

    private UrlCorpus() {}

    /**
     * {@code size} URLs as a crawler or client would submit them: about 200 hosts, paths with dot segments and
     * escapes, query strings with tracking parameters, fragments, upper-case schemes and hosts, explicit default ports,
     * and about 5% that cannot be fetched (other schemes, no scheme, userinfo, bad ports, no host, blanks).
     */
    static List<String> mixed(int size) {
        Random random = new Random(SEED);
        List<String> hosts = hosts(200, random);
        List<String> urls = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            String host = hosts.get(random.nextInt(hosts.size()));
            urls.add(random.nextInt(100) < 5 ? invalid(host, random) : messy(host, random));
        }
        return urls;
    }

    /**
     * A batch of {@code size} URLs over {@code hostCount} hosts in which {@code duplicateShare} of the entries are
     * other spellings of an earlier entry (upper-case host, explicit default port, fragment, dot segments), in
     * shuffled order. Every other entry is valid and distinct in its path, so the planner must accept exactly
     * {@link #distinct(int, double)} of them whatever query parameters it may drop.
     */
    static List<String> batch(int size, double duplicateShare, int hostCount) {
        Random random = new Random(SEED + size);
        List<String> hosts = hosts(hostCount, random);
        int distinct = distinct(size, duplicateShare);
        List<String[]> parts = new ArrayList<>(distinct);
        List<String> urls = new ArrayList<>(size);
        for (int i = 0; i < distinct; i++) {
            String scheme = random.nextInt(4) == 0 ? "http" : "https";
            String host = hosts.get(random.nextInt(hosts.size()));
            String path = "/" + WORDS[random.nextInt(WORDS.length)] + "/" + i
                    + (random.nextBoolean() ? ".html" : "/" + WORDS[random.nextInt(WORDS.length)]);
            String query = random.nextInt(3) == 0 ? "?page=" + random.nextInt(20) : "";
            parts.add(new String[] {scheme, host, path, query});
            urls.add(scheme + "://" + host + path + query);
        }
        for (int i = distinct; i < size; i++) {
            urls.add(respell(parts.get(random.nextInt(distinct)), random));
        }
        Collections.shuffle(urls, random);
        return urls;
    }

    static int distinct(int size, double duplicateShare) {
        return size - (int) Math.round(size * duplicateShare);
    }

    /** One or more of the spellings that normalize back to the same URL; never the original spelling. */
    private static String respell(String[] parts, Random random) {
        String scheme = parts[0];
        String host = parts[1];
        String path = parts[2];
        String query = parts[3];
        int changes = 1 + random.nextInt(15); // a bit mask over the four spellings, never zero
        if ((changes & 1) != 0) {
            host = host.toUpperCase(Locale.ROOT);
        }
        String port = (changes & 2) != 0 ? ("http".equals(scheme) ? ":80" : ":443") : "";
        if ((changes & 4) != 0) {
            path = path.replaceFirst("/", random.nextBoolean() ? "/./" : "/tmp/../");
        }
        String fragment = (changes & 8) != 0 ? "#section-" + random.nextInt(10) : "";
        return scheme + "://" + host + port + path + query + fragment;
    }

    /** Distinct hosts: mostly www and bare names under several TLDs, a few subdomains, IDNs and IPv4 literals. */
    private static List<String> hosts(int count, Random random) {
        List<String> hosts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int kind = random.nextInt(100);
            String tld = TLDS[random.nextInt(TLDS.length)];
            if (kind < 2) {
                hosts.add("192.0.2." + (i % 250 + 1));
            } else if (kind < 5) {
                hosts.add("bücher-" + i + ".de");
            } else if (kind < 15) {
                hosts.add("shop.brand" + i + "." + tld);
            } else if (kind < 60) {
                hosts.add("www.site" + i + "." + tld);
            } else {
                hosts.add("site" + i + "." + tld);
            }
        }
        return hosts;
    }

    private static String messy(String host, Random random) {
        StringBuilder url = new StringBuilder(128);
        String scheme = random.nextInt(10) < 7 ? "https" : "http";
        url.append(random.nextInt(10) == 0 ? scheme.toUpperCase(Locale.ROOT) : scheme).append("://");
        int hostCase = random.nextInt(20);
        url.append(hostCase == 0 ? host.toUpperCase(Locale.ROOT) : hostCase == 1 ? capitalize(host) : host);
        if (random.nextInt(50) == 0) {
            url.append('.');
        }
        int port = random.nextInt(100);
        if (port < 10) {
            url.append("http".equals(scheme) ? ":80" : ":443");
        } else if (port < 13) {
            url.append(":8080");
        }
        int segments = random.nextInt(5);
        for (int s = 0; s < segments; s++) {
            int kind = random.nextInt(100);
            if (kind < 5) {
                url.append("/.");
            } else if (kind < 10) {
                url.append('/').append(WORDS[random.nextInt(WORDS.length)]).append("/..");
            } else if (kind < 13) {
                url.append('/');
            } else if (kind < 20) {
                url.append('/').append(ESCAPED[random.nextInt(ESCAPED.length)]);
            } else if (kind < 23) {
                url.append('/').append(RAW[random.nextInt(RAW.length)]);
            } else {
                url.append('/').append(WORDS[random.nextInt(WORDS.length)]);
            }
        }
        int ending = random.nextInt(10);
        if (ending < 3) {
            url.append("/").append(random.nextInt(100_000)).append(".html");
        } else if (ending < 5 || segments == 0) {
            url.append('/');
        }
        if (random.nextInt(10) < 4) {
            List<String> params = new ArrayList<>();
            int plain = random.nextInt(3);
            for (int p = 0; p < plain; p++) {
                params.add(PARAMS[random.nextInt(PARAMS.length)] + "=" + random.nextInt(1000));
            }
            if (random.nextBoolean()) {
                List<String> tracking = new ArrayList<>(List.of(TRACKING));
                Collections.shuffle(tracking, random);
                params.addAll(tracking.subList(0, 1 + random.nextInt(3)));
            }
            if (params.isEmpty()) {
                params.add("q=" + WORDS[random.nextInt(WORDS.length)]);
            }
            Collections.shuffle(params, random);
            url.append('?').append(String.join("&", params));
        }
        if (random.nextInt(100) < 15) {
            url.append("#section-").append(random.nextInt(10));
        }
        return url.toString();
    }

    private static String invalid(String host, Random random) {
        return switch (random.nextInt(9)) {
            case 0 -> "ftp://" + host + "/pub/file.txt";
            case 1 -> "mailto:webmaster@" + host;
            case 2 -> host + "/no/scheme"; // the library alone would prefix http://
            case 3 -> "https://user:secret@" + host + "/private";
            case 4 -> "http://" + host + ":99999/";
            case 5 -> "http:///no-host";
            case 6 -> "javascript:void(0)";
            case 7 -> "https://exa mple.com/";
            default -> "   ";
        };
    }

    private static String capitalize(String host) {
        return Character.toUpperCase(host.charAt(0)) + host.substring(1);
    }
}
