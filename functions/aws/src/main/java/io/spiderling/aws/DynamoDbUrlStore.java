package io.spiderling.aws;

import static io.spiderling.aws.Attrs.bool;
import static io.spiderling.aws.Attrs.instant;
import static io.spiderling.aws.Attrs.n;
import static io.spiderling.aws.Attrs.number;
import static io.spiderling.aws.Attrs.s;
import static io.spiderling.aws.Attrs.string;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.change.ContentChange;
import io.spiderling.core.content.MarkdownCopy;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.extract.PageDirectives;
import io.spiderling.core.extract.PageMetadata;
import io.spiderling.core.extract.StructuredData;
import io.spiderling.core.fetch.Capture;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.port.UrlStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * {@link UrlStore} on the {@code urls} table, one item per normalized URL keyed by its hash. The fetch and extract
 * stages each update only their own attributes, so whichever runs first, neither erases the other's work. The claim
 * ({@code claimedAt}, {@code claimedBy}, and the {@code waiters} set of batches that joined it) is an item of its own
 * next to the row ({@code urlHash = claim:<hash>}), so joining and releasing are single-item atomic updates that
 * cannot miss each other, and cost a write unit or two however much metadata the URL's row holds (ADR 5). The
 * batches that asked to hear of a change of the fetched content are on the row ({@code noticeTo}, for the fetch at
 * {@code noticeFrom}), where the extraction's write meets them (ADR 18).
 */
public final class DynamoDbUrlStore implements UrlStore {

    static final String KEY = "urlHash";

    /** A fetch older than the one stored (a late retry), or than the URL's redirect alias, does not overwrite it. */
    static final String FETCH_CONDITION = "(attribute_not_exists(fetchedAt) OR fetchedAt <= :fetchedAt)"
            + " AND (attribute_not_exists(redirectedAt) OR redirectedAt <= :fetchedAt)";

    /**
     * Conditional on the content hash: an extraction is stale when a later extraction is stored, or when the row's
     * fetch is newer than the content read and holds other bytes. The same bytes fetched again (a 304, an unchanged
     * page) still take a late extraction of them.
     */
    /** No newer fetch of other content than the content extracted. */
    private static final String NOT_SUPERSEDED = "(attribute_not_exists(fetchedAt) OR fetchedAt <= :from"
            + " OR contentSha256 = :sha)";
    /** The first extraction of content other than the row's, which moves its change digest to the previous one. */
    static final String NEW_EXTRACTION_CONDITION = "(attribute_not_exists(extractedFrom) OR extractedFrom < :from"
            + " OR (extractedFrom = :from AND extractedSha256 <> :sha)) AND " + NOT_SUPERSEDED;
    /** An extraction of the content the row already holds (a retry): written again, the change kept. */
    static final String SAME_EXTRACTION_CONDITION = "extractedFrom = :from AND extractedSha256 = :sha AND "
            + NOT_SUPERSEDED;

    /**
     * Adding batches to a fetch's change requests ({@code noticeTo}, kept for the fetch at {@code noticeFrom}): the
     * row still holds that fetch, and its requests have room.
     */
    static final String MORE_REQUESTS_CONDITION = "fetchedAt = :at AND noticeFrom = :at AND size(noticeTo) < :max";
    /** Starting a fetch's change requests: the row still holds that fetch, and any requests it holds are older. */
    static final String FIRST_REQUESTS_CONDITION = "fetchedAt = :at AND (attribute_not_exists(noticeFrom)"
            + " OR noticeFrom < :at)";

    /** A redirect alias older than the URL's own fetch, or than the alias stored, is stale. */
    static final String REDIRECT_CONDITION = "(attribute_not_exists(fetchedAt) OR fetchedAt <= :at)"
            + " AND (attribute_not_exists(redirectedAt) OR redirectedAt <= :at)";

    /** Join a live claim of another batch. */
    static final String JOIN_CONDITION =
            "attribute_exists(claimedAt) AND claimedAt > :stale AND claimedBy <> :batch";
    /** Take the claim: nobody holds it, its holder is presumed lost, or the caller already holds it. */
    static final String CLAIM_CONDITION =
            "attribute_not_exists(claimedAt) OR claimedAt <= :stale OR claimedBy = :batch";
    /** Release a claim in one delete: it is held, and nobody joined it. */
    static final String UNJOINED = "attribute_exists(claimedAt) AND attribute_not_exists(waiters)";
    /** Release a joined claim: still the one read, with as many batches joined as read. */
    static final String AS_READ = "claimedAt = :at AND claimedBy = :by AND size(waiters) = :n";
    private static final int CLAIM_ATTEMPTS = 5;
    private static final int MAX_TRANSACTION = 100;

    private final DynamoDbClient dynamo;
    private final String table;

    /** The claim item of a URL: small, whatever the row holds. */
    static Map<String, AttributeValue> claimKey(String urlHash) {
        return Map.of(KEY, s("claim:" + urlHash));
    }

    public DynamoDbUrlStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    @Override
    public void recordFetch(FetchRecord r) {
        Update u = new Update();
        u.set("url", s(r.url()));
        u.set("state", s(r.state().wireName()));
        u.set("reason", s(r.reason().code()));
        u.set("fetchedAt", n(r.fetchedAt().toEpochMilli()));
        u.set("size", n(r.size()));
        u.set("truncated", bool(r.truncated()));
        u.set("ttfbMs", n(r.timeToFirstByteMs()));
        u.set("totalMs", n(r.totalMs()));
        u.setOrRemove("httpStatus", r.httpStatus().map(code -> n(code)));
        u.setOrRemove("contentType", r.contentType().map(Attrs::s));
        u.setOrRemove("contentKey", r.contentKey().map(Attrs::s));
        u.setOrRemove("contentSha256", r.contentSha256().map(Attrs::s));
        u.setOrRemove("finalUrl", r.finalUrl().map(Attrs::s));
        u.setOrRemove("requestUrl", r.requestUrl().map(Attrs::s));
        u.setOrRemove("error", r.error().map(Attrs::s));
        u.setOrRemove("headers", map(r.headers()));
        u.setOrRemove("redirects", list(r.redirects()));
        u.set("connectMs", n(r.connectMs()));
        u.set("attempts", n(r.attempts()));
        u.setOrRemove("freshUntil", r.freshUntil().map(at -> n(at.toEpochMilli())));
        u.setOrRemove("capture", r.capture().map(DynamoDbUrlStore::capture));
        u.setOrRemove("redirectsTo", Optional.empty());
        u.setOrRemove("redirectedAt", Optional.empty());
        u.values.put(":fetchedAt", n(r.fetchedAt().toEpochMilli()));
        u.apply(r.urlHash(), FETCH_CONDITION);
    }

    @Override
    public void recordRedirect(String urlHash, String url, String target, Instant at) {
        Update u = new Update();
        u.setIfNotExists("url", s(url));
        u.set("redirectsTo", s(target));
        u.set("redirectedAt", n(at.toEpochMilli()));
        u.values.put(":at", n(at.toEpochMilli()));
        u.apply(urlHash, REDIRECT_CONDITION);
    }

    @Override
    public boolean replaceFields(String urlHash, String url, Map<String, String> fields, long expectedVersion) {
        Update u = new Update();
        u.setIfNotExists("url", s(url));
        u.set("fields", AttributeValue.fromM(strings(fields)));
        u.set("fieldsVersion", n(expectedVersion + 1));
        if (expectedVersion == 0) {
            return u.apply(urlHash, "attribute_not_exists(fieldsVersion)");
        }
        u.values.put(":expected", n(expectedVersion));
        return u.apply(urlHash, "fieldsVersion = :expected");
    }

    @Override
    public Optional<ContentChange> recordExtraction(ExtractionRecord r, Optional<MarkdownCopy> markdown) {
        String digest = r.changeDigest().orElse(r.contentSha256());
        // New content shifts the change digest to the previous one, in the same write: DynamoDB reads every operand of
        // a SET as the item was before the update. An extraction of content already recorded (a retry) shifts
        // nothing, so it answers the change the first one recorded.
        Update shifting = extraction(r, markdown);
        shifting.setExpression("prevDigest", "if_not_exists(changeDigest, :none)");
        shifting.setExpression("prevFrom", "if_not_exists(extractedFrom, :zero)");
        shifting.set("changeDigest", s(digest));
        Optional<Map<String, AttributeValue>> written = shifting.applyReturning(r.urlHash(), NEW_EXTRACTION_CONDITION);
        if (written.isEmpty()) {
            Update again = extraction(r, markdown);
            again.setExpression("prevDigest", "if_not_exists(prevDigest, :none)");
            again.setExpression("prevFrom", "if_not_exists(prevFrom, :zero)");
            again.setExpression("changeDigest", "if_not_exists(changeDigest, :changeDigest)");
            again.values.put(":changeDigest", s(digest));
            written = again.applyReturning(r.urlHash(), SAME_EXTRACTION_CONDITION);
        }
        return written.map(DynamoDbUrlStore::change);
    }

    @Override
    public Optional<ContentChange> requestChangeNotices(String urlHash, Instant fetchedAt, String contentSha256,
            Set<String> batchIds) {
        if (batchIds.isEmpty()) {
            return Optional.empty();
        }
        AttributeValue at = n(fetchedAt.toEpochMilli());
        AttributeValue ids = AttributeValue.fromSs(List.copyOf(batchIds));
        // Two requesters of one fetch may race to start its set; the one refused then adds to the other's.
        for (int tries = 0; tries < 2; tries++) {
            Optional<Map<String, AttributeValue>> row = requesting(urlHash, "ADD noticeTo :ids",
                    MORE_REQUESTS_CONDITION, Map.of(":at", at, ":ids", ids, ":max", n(MAX_CHANGE_REQUESTS)))
                    .or(() -> requesting(urlHash, "SET noticeFrom = :at, noticeTo = :ids", FIRST_REQUESTS_CONDITION,
                            Map.of(":at", at, ":ids", ids)));
            if (row.isPresent()) {
                Map<String, AttributeValue> item = row.get();
                boolean extracted = number(item, "extractedFrom").equals(Optional.of(fetchedAt.toEpochMilli()))
                        && string(item, "extractedSha256").equals(Optional.of(contentSha256))
                        && item.containsKey("changeDigest");
                return extracted ? Optional.of(change(item)) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** One write of a fetch's change requests; the row as it is after it, empty when the condition refused it. */
    private Optional<Map<String, AttributeValue>> requesting(String urlHash, String update, String condition,
            Map<String, AttributeValue> values) {
        try {
            return Optional.of(dynamo.updateItem(b -> b.tableName(table).key(Map.of(KEY, s(urlHash)))
                    .updateExpression(update).conditionExpression(condition).expressionAttributeValues(values)
                    .returnValues(ReturnValue.ALL_NEW)).attributes());
        } catch (ConditionalCheckFailedException e) {
            return Optional.empty();
        }
    }

    @Override
    public Set<String> changeNoticeRequests(String urlHash, Instant contentFetchedAt) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).key(Map.of(KEY, s(urlHash)))
                .projectionExpression("noticeFrom, noticeTo").consistentRead(true)).item();
        if (item == null || !number(item, "noticeFrom").equals(Optional.of(contentFetchedAt.toEpochMilli()))
                || !item.containsKey("noticeTo")) {
            return Set.of();
        }
        return Set.copyOf(item.get("noticeTo").ss());
    }

    /**
     * The change a row records: its change digest next to the previous one, an empty previous digest (or time 0)
     * meaning there was none.
     */
    private static ContentChange change(Map<String, AttributeValue> item) {
        Optional<String> previous = string(item, "prevDigest").filter(d -> !d.isEmpty());
        Optional<Instant> previousAt = number(item, "prevFrom").filter(ms -> ms > 0).map(Instant::ofEpochMilli);
        return ContentChange.of(string(item, "changeDigest").orElseThrow(), previous, previousAt);
    }

    /** The extracted fields of {@code r}, as every extraction write sets them. */
    private Update extraction(ExtractionRecord r, Optional<MarkdownCopy> markdown) {
        PageMetadata p = r.page();
        Update u = new Update();
        markdown.ifPresent(m -> u.set("markdown", markdown(m)));
        u.setIfNotExists("url", s(r.url()));
        u.set("extractedAt", n(r.extractedAt().toEpochMilli()));
        u.set("extractedFrom", n(r.contentFetchedAt().toEpochMilli()));
        u.set("extractedSha256", s(r.contentSha256()));
        u.setOrRemove("title", text(p.title()));
        u.setOrRemove("description", text(p.description()));
        u.setOrRemove("language", text(p.language()));
        u.setOrRemove("canonicalHref", text(p.canonicalHref()));
        u.setOrRemove("image", text(p.image()));
        u.setOrRemove("encoding", text(p.encoding()));
        u.setOrRemove("og", map(p.openGraph()));
        u.setOrRemove("twitter", map(p.twitter()));
        u.setOrRemove("structured", p.structuredData().isEmpty() ? Optional.empty()
                : Optional.of(AttributeValue.fromL(p.structuredData().stream().map(d -> AttributeValue.fromM(Map.of(
                        "type", s(d.type()), "fields", AttributeValue.fromM(strings(d.fields()))))).toList())));
        u.setOrRemove("outlinks", LinkLists.pack(p.outlinks()));
        u.set("outlinksFound", n(p.outlinksFound()));
        u.setOrRemove("directives", directives(p.directives()));
        u.setOrRemove("canonicalUrl", r.canonicalUrl().map(Attrs::s));
        u.setOrRemove("extractedFromUrl", r.source().map(Attrs::s));
        u.values.put(":from", n(r.contentFetchedAt().toEpochMilli()));
        u.values.put(":sha", s(r.contentSha256()));
        u.values.put(":none", s(""));
        u.values.put(":zero", n(0));
        return u;
    }

    @Override
    public void recordLinked(String urlHash, List<String> outlinks, Instant contentFetchedAt) {
        Update u = new Update();
        u.setOrRemove("linked", LinkLists.pack(outlinks));
        u.values.put(":from", n(contentFetchedAt.toEpochMilli()));
        u.apply(urlHash, "extractedFrom = :from");
    }

    @Override
    public boolean recordMarkdown(String urlHash, MarkdownCopy markdown) {
        Update u = new Update();
        u.set("markdown", markdown(markdown));
        u.values.put(":sha", s(markdown.contentSha256()));
        return u.apply(urlHash, "extractedSha256 = :sha");
    }

    /** The Markdown's place on the row: a small map, written with the extraction or after it. */
    private static AttributeValue markdown(MarkdownCopy markdown) {
        Map<String, AttributeValue> m = new HashMap<>();
        m.put("sha256", s(markdown.sha256()));
        m.put("bytes", n(markdown.bytes()));
        m.put("from", s(markdown.contentSha256()));
        markdown.title().ifPresent(t -> m.put("title", s(t)));
        markdown.language().ifPresent(l -> m.put("language", s(l)));
        return AttributeValue.fromM(m);
    }

    private static Optional<MarkdownCopy> markdown(Map<String, AttributeValue> item) {
        if (!item.containsKey("markdown") || !item.get("markdown").hasM()) {
            return Optional.empty();
        }
        Map<String, AttributeValue> m = item.get("markdown").m();
        return Optional.of(new MarkdownCopy(string(m, "sha256").orElseThrow(), number(m, "bytes", 0),
                string(m, "from").orElseThrow(), string(m, "title"), string(m, "language")));
    }

    /**
     * The page's directives as a small map: the names found, the sources, the {@code unavailable_after} date as
     * written (read again on the way back, so the stored text is the one truth) and the other directives.
     */
    private static Optional<AttributeValue> directives(PageDirectives d) {
        if (d.isEmpty()) {
            return Optional.empty();
        }
        Map<String, AttributeValue> m = new HashMap<>();
        list(d.directives().stream().map(PageDirectives.Directive::wireName).toList()).ifPresent(v -> m.put("set", v));
        list(d.sources().stream().map(PageDirectives.Source::wireName).toList()).ifPresent(v -> m.put("sources", v));
        d.unavailableAfter().ifPresent(u -> m.put("unavailableAfter", s(u.text())));
        list(d.others()).ifPresent(v -> m.put("others", v));
        return Optional.of(AttributeValue.fromM(m));
    }

    private static PageDirectives directives(Map<String, AttributeValue> item) {
        if (!item.containsKey("directives") || !item.get("directives").hasM()) {
            return PageDirectives.none();
        }
        Map<String, AttributeValue> m = item.get("directives").m();
        PageDirectives.Builder d = PageDirectives.builder();
        list(m, "set").forEach(name -> PageDirectives.Directive.fromWireName(name).ifPresent(d::directive));
        list(m, "sources").forEach(name -> PageDirectives.Source.fromWireName(name).ifPresent(d::source));
        string(m, "unavailableAfter").map(PageDirectives.UnavailableAfter::of).ifPresent(d::unavailableAfter);
        list(m, "others").forEach(d::other);
        return d.build();
    }

    private static Optional<AttributeValue> text(String value) {
        return Optional.ofNullable(value).map(Attrs::s);
    }

    private static Optional<AttributeValue> map(Map<String, String> values) {
        return values.isEmpty() ? Optional.empty() : Optional.of(AttributeValue.fromM(strings(values)));
    }

    private static Optional<AttributeValue> list(List<String> values) {
        return values.isEmpty() ? Optional.empty()
                : Optional.of(AttributeValue.fromL(values.stream().map(Attrs::s).toList()));
    }

    private static Map<String, AttributeValue> strings(Map<String, String> values) {
        Map<String, AttributeValue> m = new java.util.LinkedHashMap<>();
        values.forEach((k, v) -> m.put(k, s(v)));
        return m;
    }

    private static Map<String, String> strings(Map<String, AttributeValue> item, String attribute) {
        if (!item.containsKey(attribute) || !item.get(attribute).hasM()) {
            return Map.of();
        }
        Map<String, String> m = new java.util.TreeMap<>();
        item.get(attribute).m().forEach((k, v) -> m.put(k, v.s()));
        return m;
    }

    private static List<String> list(Map<String, AttributeValue> item, String attribute) {
        return item.containsKey(attribute) && item.get(attribute).hasL()
                ? item.get(attribute).l().stream().map(AttributeValue::s).toList() : List.of();
    }

    @Override
    public Optional<UrlRecord> find(String urlHash) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table)
                .key(Map.of(KEY, s(urlHash))).consistentRead(true)).item();
        if (item == null || item.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(record(urlHash, item));
    }

    /** BatchGetItem, 100 keys a call (see {@link BatchGets}). */
    @Override
    public Map<String, UrlRecord> findAll(Collection<String> urlHashes) {
        Map<String, UrlRecord> found = new HashMap<>();
        List<Map<String, AttributeValue>> keys = new java.util.LinkedHashSet<>(urlHashes).stream()
                .map(h -> Map.of(KEY, s(h))).toList();
        BatchGets.all(dynamo, table, keys, true)
                .forEach(item -> found.put(item.get(KEY).s(), record(item.get(KEY).s(), item)));
        return found;
    }

    /** The row's reason; one stored before reasons were is presumed from its state and status. */
    private static Reason reason(Map<String, AttributeValue> item) {
        return string(item, "reason").flatMap(Reason::ofCode).orElseGet(() -> Reason.presumed(
                ItemState.fromWireName(string(item, "state").orElseThrow()),
                number(item, "httpStatus").map(Long::intValue)));
    }

    private static UrlRecord record(String urlHash, Map<String, AttributeValue> item) {
        String url = string(item, "url").orElse("");
        Optional<FetchRecord> fetch = instant(item, "fetchedAt").map(fetchedAt -> FetchRecord.builder(urlHash, url,
                        ItemState.fromWireName(string(item, "state").orElseThrow()), fetchedAt)
                .httpStatus(number(item, "httpStatus").map(Long::intValue)).contentType(string(item, "contentType"))
                .size(number(item, "size", 0)).truncated(bool(item, "truncated"))
                .contentKey(string(item, "contentKey")).contentSha256(string(item, "contentSha256"))
                .finalUrl(string(item, "finalUrl")).requestUrl(string(item, "requestUrl"))
                .timeToFirstByteMs(number(item, "ttfbMs", 0)).totalMs(number(item, "totalMs", 0))
                .error(string(item, "error")).headers(strings(item, "headers")).redirects(list(item, "redirects"))
                .connectMs(number(item, "connectMs", 0)).attempts((int) number(item, "attempts", 1))
                .freshUntil(instant(item, "freshUntil")).capture(capture(item))
                .reason(reason(item)).build());
        Optional<ExtractionRecord> extraction = instant(item, "extractedAt")
                .map(extractedAt -> ExtractionRecord.builder()
                .urlHash(urlHash).url(url).page(page(item)).contentSha256(string(item, "extractedSha256").orElse(""))
                .contentFetchedAt(instant(item, "extractedFrom").orElseThrow()).extractedAt(extractedAt)
                .canonicalUrl(string(item, "canonicalUrl")).source(string(item, "extractedFromUrl"))
                .changeDigest(string(item, "changeDigest")).build());
        return UrlRecord.builder().urlHash(urlHash).fetch(fetch).extraction(extraction)
                .change(item.containsKey("changeDigest") ? Optional.of(change(item)) : Optional.empty())
                .redirectsTo(string(item, "redirectsTo")).fields(strings(item, "fields"))
                .fieldsVersion(number(item, "fieldsVersion", 0)).linked(LinkLists.unpack(item.get("linked")))
                .markdown(markdown(item)).build();
    }

    /**
     * A fetch's capture as a small map: the object's key, the address, the time, the payload digest, and only when
     * they apply the truncation flag and the time of the capture it revisits (about 150 bytes in all).
     */
    private static AttributeValue capture(Capture c) {
        Map<String, AttributeValue> m = new HashMap<>();
        m.put("key", s(c.key()));
        m.put("ip", s(c.remoteIp()));
        m.put("at", n(c.capturedAt().toEpochMilli()));
        m.put("digest", s(c.payloadDigest()));
        if (c.truncated()) {
            m.put("truncated", bool(true));
        }
        c.refersToAt().ifPresent(at -> m.put("refersToAt", n(at.toEpochMilli())));
        return AttributeValue.fromM(m);
    }

    private static Optional<Capture> capture(Map<String, AttributeValue> item) {
        if (!item.containsKey("capture") || !item.get("capture").hasM()) {
            return Optional.empty();
        }
        Map<String, AttributeValue> m = item.get("capture").m();
        return Optional.of(Capture.builder().key(string(m, "key").orElseThrow()).remoteIp(string(m, "ip").orElse(""))
                .capturedAt(instant(m, "at").orElseThrow()).payloadDigest(string(m, "digest").orElse(""))
                .truncated(bool(m, "truncated")).refersToAt(instant(m, "refersToAt")).build());
    }

    private static PageMetadata page(Map<String, AttributeValue> item) {
        List<StructuredData> structured = item.containsKey("structured") && item.get("structured").hasL()
                ? item.get("structured").l().stream().map(v -> new StructuredData(string(v.m(), "type").orElse(""),
                        strings(v.m(), "fields"))).toList()
                : List.of();
        return PageMetadata.builder().title(string(item, "title").orElse(null))
                .description(string(item, "description").orElse(null)).language(string(item, "language").orElse(null))
                .canonicalHref(string(item, "canonicalHref").orElse(null)).image(string(item, "image").orElse(null))
                .openGraph(strings(item, "og")).twitter(strings(item, "twitter")).structuredData(structured)
                .outlinks(LinkLists.unpack(item.get("outlinks"))).outlinksFound((int) number(item, "outlinksFound", 0))
                .encoding(string(item, "encoding").orElse(null)).directives(directives(item)).build();
    }

    @Override
    public Claim claim(String urlHash, String url, String batchId, Instant now, Instant staleBefore) {
        Map<String, AttributeValue> key = claimKey(urlHash);
        for (int attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
            try {
                dynamo.updateItem(b -> b.tableName(table).key(key)
                        .updateExpression("ADD waiters :batches")
                        .conditionExpression(JOIN_CONDITION)
                        .expressionAttributeValues(Map.of(":batches", AttributeValue.fromSs(List.of(batchId)),
                                ":stale", n(staleBefore.toEpochMilli()), ":batch", s(batchId))));
                return Claim.JOINED;
            } catch (ConditionalCheckFailedException noLiveClaimOfAnother) {
                // take it below
            }
            try {
                dynamo.updateItem(b -> b.tableName(table).key(key)
                        .updateExpression("SET claimedAt = :now, claimedBy = :batch, #url = if_not_exists(#url, :url)")
                        .conditionExpression(CLAIM_CONDITION)
                        .expressionAttributeNames(Map.of("#url", "url"))
                        .expressionAttributeValues(Map.of(":now", n(now.toEpochMilli()), ":batch", s(batchId),
                                ":url", s(url), ":stale", n(staleBefore.toEpochMilli()))));
                return Claim.CLAIMED;
            } catch (ConditionalCheckFailedException claimedMeanwhile) {
                // another batch claimed it between the two writes: join that claim
            }
        }
        throw new IllegalStateException("could not claim or join " + url + " in " + CLAIM_ATTEMPTS + " attempts");
    }

    /**
     * Takes the claims in transactions of up to {@value #MAX_TRANSACTION} conditional updates; a URL whose claim is
     * refused (another batch holds it) goes through {@link #claim}, which joins it. A fresh manifest thus costs one
     * write call per hundred URLs.
     */
    @Override
    public List<Claim> claimAll(List<ClaimRequest> requests, String batchId, Instant now, Instant staleBefore) {
        Claim[] claims = new Claim[requests.size()];
        for (int from = 0; from < requests.size(); from += MAX_TRANSACTION) {
            List<Integer> todo = new ArrayList<>();
            for (int i = from; i < Math.min(requests.size(), from + MAX_TRANSACTION); i++) {
                todo.add(i);
            }
            while (!todo.isEmpty()) {
                TransactWriteItem[] updates = todo.stream().map(i -> TransactWriteItem.builder()
                        .update(u -> u.tableName(table).key(claimKey(requests.get(i).urlHash()))
                                .updateExpression("SET claimedAt = :now, claimedBy = :batch, #url = if_not_exists(#url, :url)")
                                .conditionExpression(CLAIM_CONDITION).expressionAttributeNames(Map.of("#url", "url"))
                                .expressionAttributeValues(Map.of(":now", n(now.toEpochMilli()), ":batch", s(batchId),
                                        ":url", s(requests.get(i).url()), ":stale", n(staleBefore.toEpochMilli()))))
                        .build()).toArray(TransactWriteItem[]::new);
                Optional<List<CancellationReason>> refused = Transactions.write(dynamo, updates);
                if (refused.isEmpty()) {
                    todo.forEach(i -> claims[i] = Claim.CLAIMED);
                    break;
                }
                List<Integer> again = new ArrayList<>();
                for (int k = 0; k < todo.size(); k++) {
                    int i = todo.get(k);
                    if (Transactions.CONDITION_FAILED.equals(refused.get().get(k).code())) {
                        ClaimRequest r = requests.get(i);
                        claims[i] = claim(r.urlHash(), r.url(), batchId, now, staleBefore);
                    } else {
                        again.add(i);
                    }
                }
                todo = again;
            }
        }
        return List.of(claims);
    }

    /**
     * Safe when the SDK sends a call again after its answer was lost, which a plain delete returning the batches that
     * joined is not: its repeat finds no claim, and those batches' items would stay queued. So:
     * <ul>
     *   <li>a claim nobody joined (nearly all) goes in one delete, on the condition {@value #UNJOINED}: repeated, it
     *       finds nothing, and nothing is lost, since nobody had joined;</li>
     *   <li>a claim that others joined comes back with that delete's refusal, and goes in a transaction on the
     *       condition that it is still the claim read ({@value #AS_READ}). The SDK sends a transaction's repeats with
     *       its client request token, which DynamoDB applies once, so the batches read are returned whether the first
     *       attempt's answer came back or not. A batch that joined in between refuses it, and the claim is read
     *       again.</li>
     * </ul>
     */
    @Override
    public List<String> releaseClaim(String urlHash) {
        Map<String, AttributeValue> key = claimKey(urlHash);
        Map<String, AttributeValue> claim;
        try {
            dynamo.deleteItem(b -> b.tableName(table).key(key).conditionExpression(UNJOINED)
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
            return List.of();
        } catch (ConditionalCheckFailedException joinedOrNone) {
            claim = joinedOrNone.hasItem() ? joinedOrNone.item() : Map.of();
        }
        AttributeValue claimedAt = claim.get("claimedAt");
        AttributeValue claimedBy = claim.getOrDefault("claimedBy", s(""));
        for (int attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
            AttributeValue waiters = claim.get("waiters");
            if (claimedAt == null || !claimedAt.equals(claim.get("claimedAt"))
                    || !claimedBy.equals(claim.getOrDefault("claimedBy", s(""))) || waiters == null
                    || !waiters.hasSs()) {
                // Released by another call (a duplicate delivery), which serves the batches; a claim taken since is
                // another batch's.
                return List.of();
            }
            Optional<List<CancellationReason>> refused = Transactions.write(dynamo, TransactWriteItem.builder()
                    .delete(d -> d.tableName(table).key(key).conditionExpression(AS_READ)
                            .expressionAttributeValues(Map.of(":at", claimedAt, ":by", claimedBy,
                                    ":n", n(waiters.ss().size()))))
                    .build());
            if (refused.isEmpty()) {
                return List.copyOf(waiters.ss());
            }
            claim = Optional.ofNullable(dynamo.getItem(b -> b.tableName(table).key(key).consistentRead(true)).item())
                    .orElse(Map.of());
        }
        throw new IllegalStateException("could not release the claim of " + urlHash + " in " + CLAIM_ATTEMPTS
                + " attempts: batches kept joining it");
    }

    /** Builds one UpdateItem expression of SET and REMOVE clauses with placeholder names for every attribute. */
    private final class Update {
        private final List<String> sets = new ArrayList<>();
        private final List<String> removes = new ArrayList<>();
        private final Map<String, String> names = new HashMap<>();
        private final Map<String, AttributeValue> values = new HashMap<>();

        void set(String attribute, AttributeValue value) {
            names.put("#" + attribute, attribute);
            values.put(":" + attribute, value);
            sets.add("#" + attribute + " = :" + attribute);
        }

        void setIfNotExists(String attribute, AttributeValue value) {
            names.put("#" + attribute, attribute);
            values.put(":" + attribute, value);
            sets.add("#" + attribute + " = if_not_exists(#" + attribute + ", :" + attribute + ")");
        }

        void setOrRemove(String attribute, Optional<AttributeValue> value) {
            if (value.isPresent()) {
                set(attribute, value.get());
            } else {
                names.put("#" + attribute, attribute);
                removes.add("#" + attribute);
            }
        }

        /** Sets the attribute to an expression of the item's attributes and this update's values. */
        void setExpression(String attribute, String expression) {
            sets.add(attribute + " = " + expression);
        }

        /** Returns false when the condition refused the write. */
        boolean apply(String urlHash, String condition) {
            return send(urlHash, condition, ReturnValue.NONE).isPresent();
        }

        /** The attributes the write set, as they are now; empty when the condition refused the write. */
        Optional<Map<String, AttributeValue>> applyReturning(String urlHash, String condition) {
            return send(urlHash, condition, ReturnValue.UPDATED_NEW);
        }

        private Optional<Map<String, AttributeValue>> send(String urlHash, String condition, ReturnValue returned) {
            String expression = String.join(" ", java.util.stream.Stream.of(
                    sets.isEmpty() ? "" : "SET " + String.join(", ", sets),
                    removes.isEmpty() ? "" : "REMOVE " + String.join(", ", removes))
                    .filter(c -> !c.isEmpty()).toList());
            try {
                return Optional.of(dynamo.updateItem(b -> b.tableName(table)
                        .key(Map.of(KEY, s(urlHash)))
                        .updateExpression(expression)
                        .conditionExpression(condition)
                        .expressionAttributeNames(names)
                        .expressionAttributeValues(values)
                        .returnValues(returned)).attributes());
            } catch (ConditionalCheckFailedException e) {
                return Optional.empty();
            }
        }
    }
}
