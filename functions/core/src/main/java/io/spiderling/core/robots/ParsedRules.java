package io.spiderling.core.robots;

import crawlercommons.robots.SimpleRobotRulesParser;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * crawler-commons' parser for one agent token, with the last few parse results kept. An entry stores text, not
 * compiled rules, so every decision would inflate and parse it again; for a 500 KiB file that is milliseconds per URL
 * where the lookup is microseconds. The cache is an optimisation only: a hit is checked byte for byte.
 */
final class ParsedRules {

    private static final int CAPACITY = 32;
    private static final int MAX_WARNINGS_LOGGED = 5;
    private static final String CONTENT_TYPE = "text/plain";

    private record Key(RobotsOrigin origin, Instant fetchedAt, int length, int hash) {}

    private record Parsed(byte[] gzip, RobotsRules rules) {}

    private final SimpleRobotRulesParser parser;
    private final List<String> agents;
    private final Map<Key, Parsed> recent = new LinkedHashMap<>(CAPACITY, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Parsed> eldest) {
            return size() > CAPACITY;
        }
    };

    ParsedRules(String agent) {
        // crawler-commons turns a Crawl-delay above its maximum into "disallow all"; the policy caps it instead
        this.parser = new SimpleRobotRulesParser(Long.MAX_VALUE, MAX_WARNINGS_LOGGED);
        this.parser.setExactUserAgentMatching(true);
        this.agents = List.of(agent);
    }

    /** The rules of a stored copy. */
    RobotsRules of(RobotsOrigin origin, Instant fetchedAt, byte[] gzip) {
        Key key = new Key(origin, fetchedAt, gzip.length, Arrays.hashCode(gzip));
        synchronized (recent) {
            Parsed hit = recent.get(key);
            if (hit != null && Arrays.equals(hit.gzip(), gzip)) {
                return hit.rules();
            }
        }
        RobotsRules rules = parse(origin, RobotsText.gunzip(gzip));
        remember(key, gzip, rules);
        return rules;
    }

    /** Parses freshly kept text, and remembers the result for the copy it becomes. */
    RobotsRules parseNew(RobotsOrigin origin, Instant fetchedAt, byte[] text, byte[] gzip) {
        RobotsRules rules = parse(origin, text);
        remember(new Key(origin, fetchedAt, gzip.length, Arrays.hashCode(gzip)), gzip, rules);
        return rules;
    }

    private RobotsRules parse(RobotsOrigin origin, byte[] text) {
        return new RobotsRules(parser.parseContent(origin.robotsUrl(), text, CONTENT_TYPE, agents));
    }

    private void remember(Key key, byte[] gzip, RobotsRules rules) {
        synchronized (recent) {
            recent.put(key, new Parsed(gzip, rules));
        }
    }
}
