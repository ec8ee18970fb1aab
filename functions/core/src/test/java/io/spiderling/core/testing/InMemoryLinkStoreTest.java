package io.spiderling.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.port.LinkStore.Inlink;
import io.spiderling.core.port.LinkStore.InlinkPage;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The fake's diff and paging rules, pinned against the port's javadoc. */
class InMemoryLinkStoreTest {

    private static final Instant T1 = Instant.parse("2025-03-01T10:00:00Z");
    private static final Instant T2 = T1.plusSeconds(3600);
    private static final String A = "https://a.example/";
    private static final String B = "https://b.example/";
    private static final String C = "https://c.example/";

    private final InMemoryLinkStore links = new InMemoryLinkStore(new CallLog());

    @Test
    void replaceOutlinks_whenListChanges_dropsRemovedTargetAndKeepsFirstSeenOfKeptOne() {
        Page source = page("https://source.example/");
        links.replaceOutlinks(source.hash(), source.url(), List.of(), List.of(A, B), T1);

        links.replaceOutlinks(source.hash(), source.url(), List.of(A, B), List.of(B, C), T2);

        assertEquals(List.of(), inlinks(A));
        assertEquals(List.of(new Inlink(source.hash(), source.url(), T1)), inlinks(B));
        assertEquals(List.of(new Inlink(source.hash(), source.url(), T2)), inlinks(C));
    }

    @Test
    void inlinks_whenPagedWithCursor_returnsEverySourceOnceInHashOrderAndNoCursorOnTheLastPage() {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            Page source = page("https://source.example/" + i);
            links.replaceOutlinks(source.hash(), source.url(), List.of(), List.of(A), T1);
            expected.add(source.hash());
        }
        Collections.sort(expected);

        InlinkPage first = links.inlinks(hash(A), Optional.empty(), 3);
        InlinkPage second = links.inlinks(hash(A), first.nextCursor(), 3);
        InlinkPage last = links.inlinks(hash(A), second.nextCursor(), 3);

        assertEquals(expected, Stream.of(first, second, last).flatMap(p -> p.inlinks().stream())
                .map(Inlink::sourceHash).toList());
        assertEquals(Optional.empty(), last.nextCursor());
    }

    @Test
    void replaceOutlinks_whenMoreThanMaxTargets_throwsIllegalArgumentException() {
        List<String> targets = IntStream.range(0, 1001).mapToObj(i -> A + i).toList();

        assertThrows(IllegalArgumentException.class,
                () -> links.replaceOutlinks(hash(B), B, List.of(), targets, T1));
    }

    @Test
    void inlinks_whenLimitOutOfRange_throwsIllegalArgumentException() {
        assertThrows(IllegalArgumentException.class, () -> links.inlinks(hash(A), Optional.empty(), 0));
        assertThrows(IllegalArgumentException.class, () -> links.inlinks(hash(A), Optional.empty(), 1001));
    }

    private List<Inlink> inlinks(String url) {
        return links.inlinks(hash(url), Optional.empty(), 1000).inlinks();
    }

    private record Page(String url, String hash) {}

    private static Page page(String url) {
        return new Page(url, hash(url));
    }

    private static String hash(String url) {
        return NormalizedUrl.parse(url).urlHash();
    }
}
