package io.spiderling.core.testing;

import io.spiderling.core.port.LinkStore;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A {@link LinkStore} in sorted maps, target hash to source hash to inlink. Like {@code DynamoDbLinkStore} it writes
 * only the difference between {@code previous} and {@code targets}, so it trusts {@code previous} as the adapter does,
 * and a page has a cursor only when more inlinks follow.
 */
public final class InMemoryLinkStore implements LinkStore {

    private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");

    private final CallLog log;
    private final Map<String, NavigableMap<String, Inlink>> byTarget = new HashMap<>();

    public InMemoryLinkStore(CallLog log) {
        this.log = log;
    }

    @Override
    public void replaceOutlinks(String sourceHash, String sourceUrl, List<String> previous, List<String> targets,
            Instant at) {
        checkHash("sourceHash", sourceHash);
        if (targets.size() > MAX_TARGETS || previous.size() > MAX_TARGETS) {
            throw new IllegalArgumentException("at most " + MAX_TARGETS + " outlinks per page");
        }
        Set<String> now = hashes(targets);
        Set<String> before = hashes(previous);
        log.record("LinkStore", "replaceOutlinks", sourceHash + " " + now.size());
        for (String target : now) {
            if (!before.contains(target)) {
                byTarget.computeIfAbsent(target, t -> new TreeMap<>())
                        .put(sourceHash, new Inlink(sourceHash, sourceUrl, at));
            }
        }
        for (String target : before) {
            if (!now.contains(target)) {
                byTarget.getOrDefault(target, new TreeMap<>()).remove(sourceHash);
            }
        }
    }

    @Override
    public InlinkPage inlinks(String targetHash, Optional<String> cursor, int limit) {
        checkHash("targetHash", targetHash);
        cursor.ifPresent(c -> checkHash("cursor", c));
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT + ": " + limit);
        }
        NavigableMap<String, Inlink> sources = byTarget.getOrDefault(targetHash, new TreeMap<>());
        NavigableMap<String, Inlink> after = cursor.isEmpty() ? sources : sources.tailMap(cursor.get(), false);
        List<Inlink> page = after.values().stream().limit(limit).toList();
        return new InlinkPage(page, after.size() > limit ? Optional.of(page.getLast().sourceHash()) : Optional.empty());
    }

    private static void checkHash(String name, String value) {
        if (value == null || !HASH.matcher(value).matches()) {
            throw new IllegalArgumentException(name + " must be a lower-case hex SHA-256: " + value);
        }
    }

    private static Set<String> hashes(List<String> urls) {
        Set<String> hashes = new LinkedHashSet<>();
        urls.forEach(url -> hashes.add(NormalizedUrl.parse(url).urlHash()));
        return hashes;
    }
}
