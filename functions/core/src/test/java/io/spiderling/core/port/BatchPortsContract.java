package io.spiderling.core.port;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.batch.UploadFormat;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;

/**
 * What the contracts of the four batch ports share: the stores under test, and a batch of each test's own, so that
 * an implementation may keep the tests of a class in one table. A contract of one port reads what it wrote through
 * another ({@link BatchHeaderStore#status} reads the counts items and chunks leave on the header).
 */
abstract class BatchPortsContract {

    // Millisecond precision: stores may keep instants as epoch milliseconds.
    protected static final Instant CREATED = Instant.parse("2025-03-01T10:00:00.123Z");
    protected static final Instant LATER = CREATED.plusSeconds(30);

    protected BatchStores stores;
    protected String batchId;

    /** The four ports for one test; they may hold other tests' batches. */
    protected abstract BatchStores createStores();

    @BeforeEach
    void createStoresAndNameBatch(TestInfo test) {
        stores = createStores();
        batchId = test.getTestClass().map(Class::getSimpleName).orElse("") + "-"
                + test.getTestMethod().orElseThrow().getName();
    }

    protected BatchHeader header(int total) {
        return BatchHeader.builder().batchId(batchId).total(total).duplicates(2)
                .source(BatchSource.HTTP).createdAt(CREATED).build();
    }

    protected BatchHeader uploadHeader() {
        return BatchHeader.builder().batchId(batchId).total(0).source(BatchSource.UPLOAD).createdAt(CREATED)
                .fingerprint("fp")
                .upload(Optional.of(UploadFormat.JSONL)).build();
    }

    /** URLs over a few hosts; their hashes start with several different hex digits. */
    protected static List<NormalizedUrl> urls(int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> NormalizedUrl.parse("https://site-" + (i % 3) + ".example/page/" + i))
                .toList();
    }
}
