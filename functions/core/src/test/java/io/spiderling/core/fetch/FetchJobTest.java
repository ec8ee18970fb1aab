package io.spiderling.core.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.RequestUrl;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link FetchJob#deduplicationId()} is what the canonicalize stage's re-runs rely on, so it is tested with the
 * pipeline. It belongs in {@code io.spiderling.core.fetch} once that package has tests.
 */
class FetchJobTest {

    /** SQS MessageDeduplicationId: 1 to 128 alphanumerics and ASCII punctuation. */
    private static final Pattern SQS_DEDUPLICATION_ID =
            Pattern.compile("[A-Za-z0-9!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~]{1,128}");

    private static final FetchJob BASE = job("b1", "https://example.com/a", 1);

    @Test
    void deduplicationId_whenSameBatchUrlAndAttempt_isTheSame() {
        assertEquals(BASE.deduplicationId(), job("b1", "https://example.com/a", 1).deduplicationId());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            # what differs from (b1, https://example.com/a, 1), batch id, url, attempt
            batch id,                      b2,     https://example.com/a,   1
            batch id prefix,               b,      https://example.com/a,   1
            url,                           b1,     https://example.com/b,   1
            url scheme,                    b1,     http://example.com/a,    1
            attempt,                       b1,     https://example.com/a,   2
            attempt with the same prefix,  b1,     https://example.com/a,   11
            """)
    void deduplicationId_whenAnyPartDiffers_differs(String difference, String batchId, String url, int attempt) {
        assertNotEquals(BASE.deduplicationId(), job(batchId, url, attempt).deduplicationId(), difference);
    }

    @Test
    void itemHashAndDeduplicationId_whenTheBatchNamesAUrlAsAPageAndAsASitemap_differ() {
        NormalizedUrl url = NormalizedUrl.parse("https://example.com/sitemap.xml");
        FetchJob page = new FetchJob("b", url, 1);
        FetchJob sitemap = new FetchJob("b", new Hop(url, RequestUrl.parse(url.value()), Optional.empty(),
                List.of(), Optional.of(SitemapTask.named())), 1, 1);

        assertEquals(url.urlHash(), page.itemHash());
        assertEquals(SitemapTask.itemKey(url), sitemap.itemHash());
        assertNotEquals(page.itemHash(), sitemap.itemHash());
        assertNotEquals(page.deduplicationId(), sitemap.deduplicationId());
        assertEquals(sitemap.itemHash(), sitemap.continuedAt(sitemap.hop().next(
                (io.spiderling.core.url.NormalizationResult.Accepted) io.spiderling.core.url.UrlNormalizer.create()
                        .normalize("https://example.com/sitemap_index.xml"))).itemHash(),
                "a sitemap's redirect ends the same item, still as a sitemap");
    }

    @Test
    void deduplicationId_whenPartsAreLongOrUnusual_isAtMost128CharactersSqsAllows() {
        FetchJob extreme = job("批次 / ü\n" + "x".repeat(1000), "https://example.com/" + "a".repeat(2000),
                Integer.MAX_VALUE);

        for (FetchJob job : new FetchJob[] {BASE, extreme}) {
            String id = job.deduplicationId();
            assertTrue(SQS_DEDUPLICATION_ID.matcher(id).matches(), id);
        }
    }

    private static FetchJob job(String batchId, String url, int attempt) {
        return new FetchJob(batchId, NormalizedUrl.parse(url), attempt);
    }

    @Test
    void messageGroupId_whenSplitInTwo_isTheSitesWithAStableLaneOfTheUrl() {
        FetchJob job = new FetchJob("b1", NormalizedUrl.parse("https://example.com/a"), 1);
        int lane = Integer.parseInt(job.urlHash().substring(0, 4), 16) % 2;

        assertEquals("example.com", job.messageGroupId(1));
        assertEquals("example.com#" + lane, job.messageGroupId(2));
        assertEquals(job.messageGroupId(2), new FetchJob("b2", job.url(), 3).messageGroupId(2), "by URL, not batch");
    }

    /**
     * A redirect from another site to a page the batch also asked for makes two jobs of one URL. In one group, they
     * are never in two invocations at once: the later finds the page fetched (HostileFarmTest once saw the page
     * fetched twice, 145 ms apart, when the lane was the item's).
     */
    @Test
    void messageGroupId_whenARedirectLeadsToAPageAskedForToo_isThatPagesGroup() {
        for (int i = 0; i < 32; i++) {
            NormalizedUrl page = NormalizedUrl.parse("https://target.example/page/" + i);
            FetchJob asked = new FetchJob("b1", page, 1);
            FetchJob redirected = new FetchJob("b1", new Hop(page, RequestUrl.parse(page.value()),
                    Optional.of(NormalizedUrl.parse("https://other.example/away/" + i)),
                    List.of("https://other.example/away/" + i)), 1, 1);

            assertEquals(asked.messageGroupId(2), redirected.messageGroupId(2), page.value());
        }
    }
}
