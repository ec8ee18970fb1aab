package io.spiderling.lambda.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spiderling.core.batch.BatchItem;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.Waiting;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.content.MarkdownCopy;
import io.spiderling.core.politeness.PauseCause;
import io.spiderling.core.pipeline.batch.BatchWaiting;
import io.spiderling.core.batch.PlanProgress;
import io.spiderling.core.batch.ItemKind;
import io.spiderling.core.batch.ItemPage;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Rejection;
import io.spiderling.core.change.ContentChange;
import io.spiderling.core.pipeline.ingest.Ingest;
import io.spiderling.core.pipeline.query.Queries;
import io.spiderling.lambda.internal.HttpJson;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.fetch.Capture;
import io.spiderling.core.extract.PageDirectives;
import io.spiderling.core.extract.PageMetadata;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The API's JSON shapes, in one place. */
public final class Views {

    private Views() {}

    public static ObjectNode accepted(Ingest.Result.Accepted accepted) {
        var header = accepted.header();
        ObjectNode node = HttpJson.JSON.createObjectNode()
                .put("batchId", header.batchId())
                .put("accepted", header.total())
                .put("duplicates", header.duplicates());
        node.set("rejected", rejections(accepted.plan().rejected()));
        node.put("status", "/batches/" + header.batchId());
        return node;
    }

    public static ObjectNode uploadStarted(Ingest.UploadResult.Started started) {
        var header = started.header();
        var format = header.upload().orElseThrow();
        ObjectNode node = HttpJson.JSON.createObjectNode()
                .put("batchId", header.batchId())
                .put("uploadUrl", started.uploadUrl().toString())
                .put("method", "PUT")
                .put("format", format.wireName());
        node.putObject("headers").put("Content-Type", format.contentType());
        node.put("expiresAt", started.expiresAt().toString());
        node.put("status", "/batches/" + header.batchId());
        return node;
    }

    public static ObjectNode refused(Ingest.Result.Refused refused) {
        ObjectNode node = HttpJson.JSON.createObjectNode().put("error", refused.reason());
        node.set("rejected", rejections(refused.rejected()));
        return node;
    }

    public static ObjectNode batch(BatchStatus status) {
        var header = status.header();
        ObjectNode node = HttpJson.JSON.createObjectNode()
                .put("batchId", header.batchId())
                .put("source", header.source().wireName())
                .put("total", header.total())
                .put("done", status.done())
                .put("createdAt", header.createdAt().toString());
        status.completedAt().ifPresent(at -> node.put("completedAt", at.toString()));
        status.cancelledAt().ifPresent(at -> node.put("cancelledAt", at.toString()));
        header.options().callbackUrl().ifPresent(url -> node.put("callbackUrl", url));
        header.options().recrawlAfter().ifPresent(d -> node.put("recrawlAfter", d.toString()));
        header.options().progressEvery().ifPresent(d -> node.put("progressEvery", d.toString()));
        if (header.options().capture()) {
            node.put("capture", true);
        }
        if (header.options().markdown()) {
            node.put("markdown", true);
        }
        if (!header.options().notices().isEmpty()) {
            header.options().notices().forEach(n -> node.withArray("notify").add(n.wireName()));
        }
        if (header.options().callbackUrl().isPresent()) {
            var c = status.callback();
            ObjectNode callback = node.putObject("callback");
            callback.put("state", c.deliveredAt().isPresent() ? "delivered" : c.failure().isPresent() ? "failed"
                    : status.completedAt().isPresent() ? "sending" : "waiting");
            c.deliveredAt().ifPresent(at -> callback.put("deliveredAt", at.toString()));
            c.failure().ifPresent(f -> callback.put("failure", f));
            callback.put("attempts", c.attempts());
            if (c.progressSent() > 0) {
                callback.put("progressSent", c.progressSent());
            }
            var notices = status.noticeFailures();
            if (notices.count() > 0) {
                callback.put("changeNoticesFailed", notices.count());
                notices.last().ifPresent(last -> callback.put("changeNoticeFailure", last));
            }
        }
        ObjectNode counts = node.putObject("counts");
        status.countsByWireName().forEach(counts::put);
        node.put("duplicates", header.duplicates());
        header.upload().ifPresent(format -> {
            PlanProgress p = status.planning().orElse(PlanProgress.AWAITING_UPLOAD);
            ObjectNode upload = node.putObject("upload").put("format", format.wireName())
                    .put("state", !p.uploaded() ? "awaiting-upload" : p.planned() ? "planned" : "planning");
            if (p.uploaded()) {
                upload.put("bytes", p.bytes()).put("chunks", p.chunks()).put("chunksPlanned", p.chunksDone());
            }
        });
        node.put("rejectedCount", header.rejectedCount());
        node.set("rejected", rejections(header.rejected()));
        return node;
    }

    /**
     * Adds what an unfinished batch waits on to its status: {@code waiting}, one entry per reason (empty when nothing
     * holds it up, or it is done), {@code waitingMore}, sites that say they wait beyond those looked at, and
     * {@code waitingPartial} when the batch has URLs on more origins than were looked at.
     */
    public static ObjectNode waiting(ObjectNode batch, BatchWaiting.Report report) {
        ArrayNode list = batch.putArray("waiting");
        for (Waiting w : report.waiting()) {
            ObjectNode entry = list.addObject();
            w.site().ifPresent(site -> entry.put("site", site.value()));
            entry.put("reason", waitingReason(w));
            entry.put("detail", waitingDetail(w));
            w.until().ifPresent(at -> entry.put("until", at.toString()));
            if (w.site().isPresent()) {
                entry.put("urls", w.urls());
            }
            if (w instanceof Waiting.RobotsUnreachable r) {
                entry.put("origin", r.origin().value());
            }
            if (w instanceof Waiting.Paused p) {
                p.cause().ifPresent(cause -> pauseCause(entry, cause));
            }
        }
        batch.put("waitingMore", report.more());
        if (report.partial()) {
            batch.put("waitingPartial", true);
        }
        return batch;
    }

    /** The wire name of a wait's kind. */
    static String waitingReason(Waiting waiting) {
        return switch (waiting) {
            case Waiting.Planning p -> "planning";
            case Waiting.FetchingPaused f -> "fetching-paused";
            case Waiting.RobotsUnreachable r -> "robots-unreachable";
            case Waiting.Paused p -> "paused";
            case Waiting.RateLimited r -> "rate-limited";
            case Waiting.Retrying r -> "retrying";
        };
    }

    /** One line for people: the CLI prints it after the site, with the time from {@code until}. */
    static String waitingDetail(Waiting waiting) {
        return switch (waiting) {
            case Waiting.Planning p -> p.chunks() <= 0 ? "waiting for the manifest upload"
                    : "planning the uploaded manifest: " + p.chunksPlanned() + " of " + p.chunks() + " chunks";
            case Waiting.FetchingPaused f -> "fetching is paused by the operators";
            case Waiting.RobotsUnreachable r -> "robots.txt unreachable ("
                    + r.status().map(String::valueOf).orElse("no answer") + ")"
                    + (r.failures() > 1 ? ", " + r.failures() + " tries failed" : "");
            case Waiting.Paused p -> pausedDetail(p);
            case Waiting.RateLimited r -> "rate-limited: one request every " + seconds(r.interval());
            case Waiting.Retrying r -> r.retrying() + (r.retrying() == 1 ? " URL" : " URLs")
                    + " failed, next attempt " + r.attempt();
        };
    }

    /**
     * What the pause's stored cause says, e.g. "paused by 429 (Retry-After 120 s)" or "paused after 3 URLs failed in a
     * row (last: timeout)"; a pause whose cause this version cannot read names both possibilities.
     */
    private static String pausedDetail(Waiting.Paused p) {
        List<String> notes = new java.util.ArrayList<>();
        String what;
        switch (p.cause().orElse(null)) {
            case null -> what = "paused: the site answered 429/503 or kept failing";
            case PauseCause.Throttled t -> {
                what = "paused by " + t.status();
                t.retryAfter().ifPresent(d -> notes.add("Retry-After " + seconds(d)));
            }
            case PauseCause.Failures f -> {
                what = "paused after " + f.urls() + (f.urls() == 1 ? " URL failed" : " URLs failed in a row");
                notes.add((f.urls() == 1 ? "" : "last: ") + f.last().wireName());
            }
        }
        if (p.pausesInRow() > 1) {
            notes.add(p.pausesInRow() + " pauses in a row");
        }
        return notes.isEmpty() ? what : what + " (" + String.join("; ", notes) + ")";
    }

    /** {@code cause} (throttled, failures) and, for a throttle, the {@code status} that asked for it. */
    private static void pauseCause(ObjectNode entry, PauseCause cause) {
        switch (cause) {
            case PauseCause.Throttled t -> entry.put("cause", "throttled").put("status", t.status());
            case PauseCause.Failures f -> entry.put("cause", "failures");
        }
    }

    private static String seconds(java.time.Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : String.format(java.util.Locale.ROOT, "%.1f s",
                d.toMillis() / 1000.0);
    }

    /**
     * A URL's record. {@code url} is the key of the URL whose record answers, and {@code requestUrl} the spelling of it
     * that was requested (they differ where the key sorts or drops query parameters); {@code askedUrl} and
     * {@code aliasOf} appear when the URL asked about is an alias (it redirected, or its page named a canonical URL).
     *
     * @param directives the page's directives, header and meta tags together ({@link Queries#directives}); shown in
     *     the metadata when the page said anything to the agent
     */
    public static ObjectNode url(Queries.UrlLookup.Found found, PageDirectives directives) {
        var record = found.record();
        ObjectNode node = HttpJson.JSON.createObjectNode()
                .put("url", found.resolvedUrl())
                .put("urlHash", record.urlHash());
        found.alias().ifPresent(alias -> node.put("askedUrl", found.url().value())
                .put("aliasOf", found.resolvedUrl())
                .put("aliasReason", alias.redirectsTo().isPresent() ? "redirect" : "canonical"));
        record.fetch().ifPresentOrElse(f -> {
            f.requestUrl().ifPresent(u -> node.put("requestUrl", u));
            node.put("state", f.state().wireName()).put("reason", f.reason().code());
            f.httpStatus().ifPresent(s -> node.put("httpStatus", s));
            f.contentType().ifPresent(ct -> node.put("contentType", ct));
            node.put("size", f.size()).put("truncated", f.truncated());
            f.contentKey().ifPresent(k -> node.put("contentKey", k));
            f.contentSha256().ifPresent(s -> node.put("contentSha256", s));
            f.finalUrl().ifPresent(u -> node.put("finalUrl", u));
            node.put("fetchedAt", f.fetchedAt().toString());
            f.freshUntil().ifPresent(at -> node.put("freshUntil", at.toString()));
            node.put("attempts", f.attempts());
            node.putObject("timings").put("connectMs", f.connectMs()).put("timeToFirstByteMs", f.timeToFirstByteMs())
                    .put("totalMs", f.totalMs());
            if (!f.headers().isEmpty()) {
                ObjectNode headers = node.putObject("headers");
                new java.util.TreeMap<>(f.headers()).forEach(headers::put);
            }
            if (!f.redirects().isEmpty()) {
                ArrayNode chain = node.putArray("redirects");
                f.redirects().forEach(chain::add);
            }
            f.error().ifPresent(e -> node.put("error", e));
            f.capture().ifPresent(c -> node.set("capture", capture(f.requestUrl().orElse(f.url()), c)));
        }, () -> {
            if (record.extraction().flatMap(ExtractionRecord::source).isEmpty()) {
                node.put("state", ItemState.QUEUED.wireName());
            }
        });
        Queries.change(record).ifPresent(c -> node.set("change", change(c)));
        record.extraction().ifPresent(x -> {
            x.source().ifPresent(source -> node.put("contentFrom", source)
                    .put("contentKey", BucketKeys.content(x.contentSha256()))
                    .put("contentSha256", x.contentSha256()));
            x.canonicalUrl().ifPresent(c -> node.put("canonicalUrl", c));
            node.set("metadata", metadata(x, directives));
        });
        record.currentMarkdown().ifPresent(m -> node.set("markdown", markdown(m, HttpJson.JSON.createObjectNode())));
        if (!record.fields().isEmpty()) {
            node.set("fields", fields(record.fields()));
        }
        return node;
    }

    /**
     * The Markdown of a URL's current content, added to {@code node}: {@code key}, {@code sha256}, {@code bytes}, and
     * {@code title} and {@code language} when the page has them.
     */
    public static ObjectNode markdown(MarkdownCopy m, ObjectNode node) {
        node.put("key", m.key()).put("sha256", m.sha256()).put("bytes", m.bytes());
        m.title().ifPresent(t -> node.put("title", t));
        m.language().ifPresent(l -> node.put("language", l));
        return node;
    }

    /** {@code {"state","digest","previousDigest","previousFetchedAt"}}, the previous ones when there was content before. */
    private static ObjectNode change(ContentChange c) {
        ObjectNode node = HttpJson.JSON.createObjectNode().put("state", c.state().wireName()).put("digest", c.digest());
        c.previousDigest().ifPresent(d -> node.put("previousDigest", d));
        c.previousFetchedAt().ifPresent(at -> node.put("previousFetchedAt", at.toString()));
        return node;
    }

    /**
     * Where the fetch's wire capture is and what a WARC writer needs besides its bytes (docs/warc.md).
     * {@code targetUri} is the URL requested on the wire, which for an alias differs from the URL asked about.
     */
    private static ObjectNode capture(String targetUri, Capture c) {
        ObjectNode node = HttpJson.JSON.createObjectNode()
                .put("key", c.key())
                .put("targetUri", targetUri)
                .put("remoteIp", c.remoteIp())
                .put("capturedAt", c.capturedAt().toString())
                .put("payloadDigest", c.payloadDigest());
        if (c.truncated()) {
            node.put("truncated", true);
        }
        c.refersToAt().ifPresent(at -> node.put("refersToAt", at.toString()));
        return node;
    }

    private static ObjectNode metadata(ExtractionRecord x, PageDirectives directives) {
        PageMetadata p = x.page();
        ObjectNode meta = HttpJson.JSON.createObjectNode();
        putIfPresent(meta, "title", p.title());
        putIfPresent(meta, "description", p.description());
        putIfPresent(meta, "language", p.language());
        putIfPresent(meta, "image", p.image());
        putIfPresent(meta, "canonicalHref", p.canonicalHref());
        putIfPresent(meta, "encoding", p.encoding());
        if (!p.openGraph().isEmpty()) {
            ObjectNode og = meta.putObject("openGraph");
            p.openGraph().forEach(og::put);
        }
        if (!p.twitter().isEmpty()) {
            ObjectNode tw = meta.putObject("twitter");
            p.twitter().forEach(tw::put);
        }
        if (!p.structuredData().isEmpty()) {
            ArrayNode items = meta.putArray("structuredData");
            p.structuredData().forEach(d -> {
                ObjectNode item = items.addObject().put("type", d.type());
                d.fields().forEach(item::put);
            });
        }
        ArrayNode outlinks = meta.putArray("outlinks");
        p.outlinks().forEach(outlinks::add);
        meta.put("outlinksFound", p.outlinksFound());
        if (!directives.isEmpty()) {
            meta.set("directives", directives(directives));
        }
        meta.put("extractedAt", x.extractedAt().toString());
        meta.put("contentSha256", x.contentSha256());
        return meta;
    }

    /**
     * Each recorded directive by name, true or false; {@code unavailableAfter} (ISO 8601, when the date was read) and
     * {@code unavailableAfterText} (as written); {@code others}, the directives not recorded by name; and
     * {@code sources}, where they were found ({@code header}, {@code meta}).
     */
    static ObjectNode directives(PageDirectives d) {
        ObjectNode node = HttpJson.JSON.createObjectNode();
        for (PageDirectives.Directive directive : PageDirectives.Directive.values()) {
            node.put(directive.wireName(), d.has(directive));
        }
        d.unavailableAfter().ifPresent(u -> {
            u.at().ifPresent(at -> node.put("unavailableAfter", at.toString()));
            node.put("unavailableAfterText", u.text());
        });
        if (!d.others().isEmpty()) {
            ArrayNode others = node.putArray("others");
            d.others().forEach(others::add);
        }
        ArrayNode sources = node.putArray("sources");
        d.sources().forEach(source -> sources.add(source.wireName()));
        return node;
    }

    /** Application fields, each stored as JSON text, back as JSON values. */
    public static ObjectNode fields(Map<String, String> fields) {
        ObjectNode node = HttpJson.JSON.createObjectNode();
        new TreeMap<>(fields).forEach((name, json) -> {
            try {
                node.set(name, HttpJson.JSON.readTree(json));
            } catch (java.io.IOException e) {
                node.put(name, json); // not written through the API; shown as the text it is
            }
        });
        return node;
    }

    private static void putIfPresent(ObjectNode node, String name, String value) {
        if (value != null) {
            node.put(name, value);
        }
    }

    public static ObjectNode items(String batchId, ItemPage page) {
        ObjectNode node = HttpJson.JSON.createObjectNode().put("batchId", batchId);
        ArrayNode items = node.putArray("items");
        for (BatchItem item : page.items()) {
            ObjectNode i = items.addObject().put("url", item.url()).put("urlHash", item.urlHash())
                    .put("state", item.state().wireName());
            if (item.kind() != ItemKind.PAGE) {
                i.put("kind", item.kind().wireName());
            }
            item.reason().ifPresent(r -> i.put("reason", r.code()));
            item.detail().ifPresent(d -> i.put("detail", d));
            item.endedAt().ifPresent(at -> i.put("endedAt", at.toString()));
        }
        page.cursor().ifPresentOrElse(c -> node.put("cursor", c), () -> node.putNull("cursor"));
        return node;
    }

    private static ArrayNode rejections(List<Rejection> rejected) {
        ArrayNode array = HttpJson.JSON.createArrayNode();
        rejected.forEach(r -> array.addObject().put("url", r.url()).put("reason", r.reason()));
        return array;
    }
}
