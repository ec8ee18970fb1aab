package io.spiderling.core.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import io.spiderling.core.url.UrlNormalizer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchPlannerTest {

    private final BatchPlanner planner = BatchPlanner.create(UrlNormalizer.create());

    @Test
    void plan_whenSameUrlSpelledDifferently_keepsFirstSpellingAndCountsDuplicates() {
        BatchPlan plan = planner.plan(List.of(
                "HTTP://Example.com:80/a/../b#x",
                "http://example.com/b",
                "  http://EXAMPLE.com/b  "));

        assertEquals(values("http://example.com/b"), plan.urls());
        assertEquals(2, plan.duplicates());
        assertEquals(List.of(), plan.rejected());
    }

    @Test
    void plan_whenTwoSpellingsShareAKey_requestsTheFirstAsWritten() {
        BatchPlan plan = planner.plan(List.of(
                "http://example.com/p?b=2&utm_source=x&a=1", "http://example.com/p?a=1&b=2"));

        assertEquals(values("http://example.com/p?a=1&b=2"), plan.urls());
        assertEquals("http://example.com/p?b=2&utm_source=x&a=1", plan.accepted().getFirst().request().value(),
                "the site is sent what the client wrote first: its order, its parameters");
        assertEquals(1, plan.duplicates());
    }

    @Test
    void plan_whenMixedSites_keepsSubmissionOrder() {
        BatchPlan plan = planner.plan(List.of(
                "https://b.example/1", "https://a.example/1", "https://b.example/2", "https://a.example/1"));

        assertEquals(values("https://b.example/1", "https://a.example/1", "https://b.example/2"), plan.urls());
        assertEquals(1, plan.duplicates());
    }

    @Test
    void plan_whenInvalidUrls_rejectsEachWithItsInputAndReason() {
        BatchPlan plan = planner.plan(Arrays.asList(
                "ftp://example.com/f", "https://example.com/ok", null, "http://user@example.com/",
                "ftp://example.com/f"));

        assertEquals(values("https://example.com/ok"), plan.urls());
        assertEquals(List.of(
                new Rejection("ftp://example.com/f", "unsupported scheme: ftp"),
                new Rejection(null, "missing URL"),
                new Rejection("http://user@example.com/", "userinfo not allowed"),
                new Rejection("ftp://example.com/f", "unsupported scheme: ftp")), plan.rejected());
        assertEquals(0, plan.duplicates());
    }

    @Test
    void plan_whenEmpty_isEmptyPlan() {
        assertEquals(new BatchPlan(List.of(), 0, List.of()), planner.plan(List.of()));
    }

    @Test
    void bySite_whenSeveralSites_groupsInOrderOfFirstAppearance() {
        BatchPlan plan = planner.plan(List.of(
                "https://b.example/1", "https://a.example:8443/1", "https://b.example/2", "http://a.example/2",
                "https://c.example/1"));

        Map<SiteKey, List<NormalizedUrl>> bySite = plan.bySite();

        assertEquals(List.of(new SiteKey("b.example"), new SiteKey("a.example"), new SiteKey("c.example")),
                List.copyOf(bySite.keySet()));
        assertEquals(values("https://b.example/1", "https://b.example/2"), bySite.get(new SiteKey("b.example")));
        assertEquals(values("https://a.example:8443/1", "http://a.example/2"), bySite.get(new SiteKey("a.example")));
        assertEquals(values("https://c.example/1"), bySite.get(new SiteKey("c.example")));
    }

    private static List<NormalizedUrl> values(String... normalized) {
        return Arrays.stream(normalized).map(NormalizedUrl::parse).toList();
    }
}
