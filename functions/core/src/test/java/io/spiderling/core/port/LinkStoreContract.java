package io.spiderling.core.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.port.LinkStore.Inlink;
import io.spiderling.core.port.LinkStore.InlinkPage;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * What {@link LinkStore}'s javadoc promises, run against every implementation. Implementations may share one store
 * between the tests of a class, so each test links its own URLs (named after the test).
 */
public abstract class LinkStoreContract {

    // Millisecond precision: stores may keep instants as epoch milliseconds.
    protected static final Instant T1 = Instant.parse("2025-03-01T10:00:00.001Z");
    protected static final Instant T2 = T1.plusSeconds(3600);

    protected LinkStore store;
    protected String base;

    /** A store for one test; it may hold other tests' links. */
    protected abstract LinkStore createStore();

    @BeforeEach
    void createStoreAndNameUrls(TestInfo test) {
        store = createStore();
        base = "https://example.com/" + Contracts.nameOf(test);
    }

    @Test
    void replaceOutlinks_whenListChanges_dropsRemovedTargetAndKeepsFirstSeenOfKeptOne() {
        String source = base + "/source";
        String a = base + "/a";
        String b = base + "/b";
        String c = base + "/c";
        store.replaceOutlinks(hash(source), source, List.of(), List.of(a, b), T1);

        store.replaceOutlinks(hash(source), source, List.of(a, b), List.of(b, c), T2);

        assertEquals(List.of(), all(a), "the dropped link is deleted");
        assertEquals(List.of(new Inlink(hash(source), source, T1)), all(b), "the kept link keeps its first sighting");
        assertEquals(List.of(new Inlink(hash(source), source, T2)), all(c));
    }

    @Test
    void replaceOutlinks_whenRepeatedOrAUrlListedTwice_keepsTheSameLinks() {
        String source = base + "/source";
        String a = base + "/a";
        String b = base + "/b";
        String c = base + "/c";
        store.replaceOutlinks(hash(source), source, List.of(), List.of(a, b), T1);
        store.replaceOutlinks(hash(source), source, List.of(a, b), List.of(b, c), T2);

        store.replaceOutlinks(hash(source), source, List.of(a, b), List.of(b, c), T2);
        store.replaceOutlinks(hash(source), source, List.of(b, c), List.of(b, c, b), T2);

        assertEquals(List.of(), all(a));
        assertEquals(List.of(new Inlink(hash(source), source, T1)), all(b));
        assertEquals(List.of(new Inlink(hash(source), source, T2)), all(c));
    }

    @Test
    void inlinks_whenPagedWithCursor_returnsEverySourceOnceInHashOrderAndNoCursorAfterTheLastPage() {
        String target = base + "/target";
        List<String> expected = linkFromSources(target, 60).stream().sorted().toList();

        for (int limit : List.of(4, 7, 50, 60)) {
            List<InlinkPage> pages = pageThrough(target, limit);

            assertEquals(expected, pages.stream().flatMap(p -> p.inlinks().stream()).map(Inlink::sourceHash).toList(),
                    "limit " + limit);
            pages.forEach(p -> assertEquals(true, p.inlinks().size() <= limit, "limit " + limit));
        }
    }

    @Test
    void inlinks_whenTargetHasNoInlinks_returnsEmptyPageWithoutCursor() {
        assertEquals(new InlinkPage(List.of(), Optional.empty()),
                store.inlinks(hash(base + "/lonely"), Optional.empty(), 10));
    }

    @Test
    void replaceOutlinks_whenMoreThanMaxTargets_throwsIllegalArgumentExceptionAndWritesNothing() {
        String source = base + "/source";
        List<String> tooMany = IntStream.range(0, LinkStore.MAX_TARGETS + 1).mapToObj(i -> base + "/t-" + i).toList();

        assertThrows(IllegalArgumentException.class,
                () -> store.replaceOutlinks(hash(source), source, List.of(), tooMany, T1));
        assertThrows(IllegalArgumentException.class,
                () -> store.replaceOutlinks(hash(source), source, tooMany, List.of(), T1));

        assertEquals(List.of(), all(tooMany.getFirst()));
    }

    @Test
    void replaceOutlinks_whenATargetIsNotAnHttpUrl_throwsIllegalArgumentException() {
        String source = base + "/source";

        assertThrows(IllegalArgumentException.class, () -> store.replaceOutlinks(hash(source), source, List.of(),
                List.of("mailto:someone@example.com"), T1));
    }

    @Test
    void inlinks_whenLimitOrCursorInvalid_throwsIllegalArgumentException() {
        String target = hash(base + "/target");

        Stream.of(0, LinkStore.MAX_LIMIT + 1).forEach(limit -> assertThrows(IllegalArgumentException.class,
                () -> store.inlinks(target, Optional.empty(), limit), "limit " + limit));
        assertThrows(IllegalArgumentException.class, () -> store.inlinks(target, Optional.of("not-a-hash"), 10));
        assertThrows(IllegalArgumentException.class, () -> store.inlinks("not-a-hash", Optional.empty(), 10));
    }

    /** Links {@code count} sources to {@code target}, one call each, and returns the sources' hashes. */
    protected List<String> linkFromSources(String target, int count) {
        List<String> sources = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String source = base + "/source-" + i;
            store.replaceOutlinks(hash(source), source, List.of(), List.of(target), T1);
            sources.add(hash(source));
        }
        return sources;
    }

    protected List<InlinkPage> pageThrough(String target, int limit) {
        List<InlinkPage> pages = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        do {
            InlinkPage page = store.inlinks(hash(target), cursor, limit);
            pages.add(page);
            cursor = page.nextCursor();
        } while (cursor.isPresent());
        return pages;
    }

    protected List<Inlink> all(String target) {
        return store.inlinks(hash(target), Optional.empty(), LinkStore.MAX_LIMIT).inlinks();
    }

    protected static String hash(String url) {
        return NormalizedUrl.parse(url).urlHash();
    }
}
