package io.spiderling.local.nativecheck;

import static io.spiderling.catalog.FunctionNames.API;
import static io.spiderling.catalog.FunctionNames.CANONICALIZE;
import static io.spiderling.catalog.FunctionNames.EXTRACT;
import static io.spiderling.catalog.FunctionNames.FETCH;
import static io.spiderling.catalog.FunctionNames.FETCH_DLQ;
import static io.spiderling.catalog.FunctionNames.INGEST;
import static io.spiderling.catalog.FunctionNames.INGEST_QUEUE;
import static io.spiderling.catalog.FunctionNames.NOTIFY;
import static io.spiderling.catalog.FunctionNames.NOTIFY_DLQ;
import static io.spiderling.catalog.FunctionNames.PLAN;
import static io.spiderling.catalog.FunctionNames.SWEEP;
import static io.spiderling.catalog.FunctionNames.WAKE;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Every sample event of the catalog as the check sends it, in pipeline order: each build runs them one after the other
 * against its own resources, so later events find what earlier ones left (the fetch finds the jobs canonicalize
 * planned from the seeded manifest; extract reads the body the fetch stored; the API reads both), and the two builds
 * see the same state at every step. {@link StackSeed} puts in place what no earlier event provides.
 */
public final class Scenarios {

    private Scenarios() {}

    /**
     * The scenarios for {@code functions}: those defined here that the catalog lists, in pipeline order, then any
     * catalog event defined nowhere here, sent as it is and expected only to be answered the same by both builds.
     */
    public static List<Scenario> forCatalog(List<FunctionSpec> functions, Fixture fixture) {
        Map<String, Scenario> defined = new LinkedHashMap<>();
        pipeline(fixture).forEach(s -> defined.put(s.function() + " " + s.event(), s));
        List<Scenario> plan = new ArrayList<>();
        defined.values().stream()
                .filter(s -> functions.stream().anyMatch(f -> f.name().equals(s.function())
                        && f.sampleEvents().contains(s.event())))
                .forEach(plan::add);
        for (FunctionSpec function : functions) {
            for (String event : function.sampleEvents()) {
                if (!defined.containsKey(function.name() + " " + event)) {
                    plan.add(Scenario.of(function.name(), event).exercises("sent as it is (no scenario defined)")
                            .build());
                }
            }
        }
        return List.copyOf(plan);
    }

    static List<Scenario> pipeline(Fixture fixture) {
        String site = fixture.crawled().host();
        String receiver = fixture.receiver().host();
        String page = fixture.pageUrl();
        String linked = fixture.crawled().url("/about");
        return List.of(
                Scenario.of(INGEST, "api-post-batches.json")
                        .exercises("POST /batches: URLs normalized and deduplicated, callback checked (SSRF guard),"
                                + " batch header to DynamoDB, manifest to S3")
                        .rewrite(body(b -> b.put("callbackUrl", fixture.hookUrl())))
                        .expect(new Expectation.Status(202)).build(),
                Scenario.of(INGEST, "api-post-batches-uploads.json")
                        .exercises("POST /batches/uploads: batch opened under its idempotency key, presigned S3 PUT")
                        .rewrite(body(b -> b.put("callbackUrl", fixture.hookUrl())))
                        .expect(new Expectation.Status(201)).build(),
                Scenario.of(INGEST_QUEUE, "sqs-ingest.json")
                        .exercises("a message of URLs becomes a batch, one that holds no URL a refused batch")
                        .expect(new Expectation.NoFailedMessages()).build(),
                Scenario.of(CANONICALIZE, "s3-manifest-created.json")
                        .exercises("the seeded batch's manifest planned: items, claims, frontier, fetch jobs to SQS")
                        .expect(new Expectation.AtLeast(2)).build(),
                Scenario.of(CANONICALIZE, "s3-upload-created.json")
                        .exercises("the seeded upload of the batch ingest opened: copied to planned/, cut into"
                                + " chunks, plan messages to SQS")
                        .expect(new Expectation.AtLeast(2)).build(),
                Scenario.of(PLAN, "sqs-plan.json")
                        .exercises("chunks 0 and 1 of that upload planned (JSON lines, duplicates, frontier)")
                        .expect(new Expectation.NoFailedMessages()).build(),
                Scenario.of(FETCH, "sqs-fetch.json")
                        .exercises("robots.txt and the page GET from " + site + " (Vert.x, SSRF guard, rate slot),"
                                + " body to S3, row to DynamoDB, item fetched")
                        .rewrite(job(page))
                        .expect(new Expectation.NoFailedMessages(),
                                new Expectation.Requested(site, "GET", "/robots.txt"),
                                new Expectation.Requested(site, "GET", "/"))
                        .build(),
                Scenario.of(FETCH_DLQ, "sqs-fetch-dlq.json")
                        .exercises("the seeded batch's other URL ends as failed(dlq), completing the batch")
                        .rewrite(job(fixture.goneUrl()))
                        .expect(new Expectation.NoFailedMessages()).build(),
                Scenario.of(EXTRACT, "s3-content-created.json")
                        .exercises("jsoup extraction of the stored page (encoding, OpenGraph, JSON-LD, canonical,"
                                + " outlinks) into its row, links indexed, and the Markdown of its main content")
                        .rewrite(objectKey(fixture.pageContentKey(), fixture.pageBytes()))
                        .expect(new Expectation.AtLeast(1)).build(),
                Scenario.of(NOTIFY, "sqs-notify.json")
                        .exercises("the completed batch's webhook, signed with client-a's webhook secret read from"
                                + " the clients secret (Secrets Manager), POSTed to " + receiver)
                        .expect(new Expectation.NoFailedMessages(),
                                new Expectation.Requested(receiver, "POST", Fixture.HOOK_PATH))
                        .build(),
                Scenario.of(NOTIFY, "sqs-notify-changed.json")
                        .exercises("a page's change (url.changed) posted to the batch's webhook, which asked for"
                                + " changes, signed as the completion is, POSTed to " + receiver)
                        .expect(new Expectation.NoFailedMessages(),
                                new Expectation.Requested(receiver, "POST", Fixture.HOOK_PATH))
                        .build(),
                Scenario.of(NOTIFY_DLQ, "sqs-notify-dlq.json")
                        .exercises("a completion delivery given up on, recorded on the batch")
                        .expect(new Expectation.NoFailedMessages()).build(),
                Scenario.of(API, "api-get-batch.json")
                        .exercises("GET /batches/{id}: counts of the seeded batch (one fetched, one failed)")
                        .expect(new Expectation.Status(200)).build(),
                Scenario.of(API, "api-get-batch-urls.json")
                        .exercises("GET /batches/{id}/urls?state=failed: the dead-lettered URL")
                        .expect(new Expectation.Status(200)).build(),
                Scenario.of(API, "api-delete-batch.json")
                        .exercises("DELETE /batches/{id} of a completed batch: refused")
                        .expect(new Expectation.Status(409)).build(),
                Scenario.of(API, "api-get-url.json")
                        .exercises("GET /urls: the fetched page's record with its extracted metadata")
                        .rewrite(query("url", page))
                        .expect(new Expectation.Status(200)).build(),
                Scenario.of(API, "api-post-urls-batchget.json")
                        .exercises("POST /urls/batchGet: the page, an unknown URL and an invalid one")
                        .rewrite(body(b -> replaceUrl((ArrayNode) b.get("urls"), "https://example.com/", page)))
                        .expect(new Expectation.Status(200)).build(),
                Scenario.of(API, "api-get-url-content.json")
                        .exercises("GET /urls/content: a presigned S3 GET of the stored body")
                        .rewrite(query("url", page))
                        .expect(new Expectation.Status(200)).build(),
                Scenario.of(API, "api-get-url-markdown.json")
                        .exercises("GET /urls/markdown: the Markdown of the page's main content, which the extract"
                                + " stage rendered (Readability4J, flexmark) because the seeded batch asked for it")
                        .rewrite(query("url", page))
                        .expect(new Expectation.Status(200)).build(),
                Scenario.of(API, "api-get-url-inlinks.json")
                        .exercises("GET /urls/inlinks of a page the fetched page links to: the links table")
                        .rewrite(query("url", linked))
                        .expect(new Expectation.Status(200)).build(),
                Scenario.of(API, "api-patch-url-fields.json")
                        .exercises("PATCH /urls/fields on the page's record")
                        .rewrite(query("url", page))
                        .expect(new Expectation.Status(200)).build(),
                Scenario.of(API, "api-get-key-directory.json")
                        .exercises("GET /.well-known/http-message-signatures-directory without credentials, signing"
                                + " off as the check's environment has it: the function's own 404 (ADR 21)")
                        .expect(new Expectation.Status(404)).build(),
                Scenario.of(API, "api-get-admin-fetching.json")
                        .exercises("GET /admin/fetching as the operator, an admin by the clients secret's flag: the"
                                + " kill switch, on")
                        .expect(new Expectation.Status(200)).build(),
                Scenario.of(API, "api-put-admin-fetching.json")
                        .exercises("PUT /admin/fetching {\"paused\":false}: the switch item written, fetching on")
                        .expect(new Expectation.Status(200)).build(),
                Scenario.of(API, "api-put-admin-opt-out.json")
                        .exercises("PUT /admin/opt-outs/{site}: a site opted out in the sites table's CONTROL"
                                + " partition")
                        .expect(new Expectation.Status(200)).build(),
                Scenario.of(API, "api-get-admin-opt-outs.json")
                        .exercises("GET /admin/opt-outs: the one list, read in one query")
                        .expect(new Expectation.Status(200)).build(),
                Scenario.of(API, "api-delete-admin-opt-out.json")
                        .exercises("DELETE /admin/opt-outs/{site}: that site taken off again")
                        .expect(new Expectation.Status(200)).build(),
                Scenario.of(API, "api-put-admin-quota.json")
                        .exercises("PUT /admin/quotas/{client}: client B's URLs a day, set in the batches table")
                        .expect(new Expectation.Status(200)).build(),
                Scenario.of(API, "api-get-admin-quota.json")
                        .exercises("GET /admin/quotas/{client}: the limit, today's use and the reset time")
                        .expect(new Expectation.Status(200)).build(),
                Scenario.of(SWEEP, "eventbridge-sweep.json")
                        .exercises("the frontier sweep over every active site (the upload's parked URLs)")
                        .expect(new Expectation.AtLeast(0)).build(),
                Scenario.of(WAKE, "sqs-wake.json")
                        .exercises("a delayed wake-up of example.com: its due frontier entries released (none here)")
                        .expect(new Expectation.NoFailedMessages()).build(),
                Scenario.of(FETCH, "sqs-fetch-sitemap.json")
                        .exercises("a sitemap job: GET /sitemap.xml from " + site + " within the 50 MB cap, read by"
                                + " crawler-commons' SAX parser, its list cut into planned/, a plan message")
                        .rewrite(job(fixture.sitemapUrl()))
                        .expect(new Expectation.NoFailedMessages(),
                                new Expectation.Requested(site, "GET", "/sitemap.xml"))
                        .build(),
                Scenario.of(PLAN, "sqs-plan-sitemap.json")
                        .exercises("chunk 0 of that sitemap's list planned (lastmod, a cross-site entry refused),"
                                + " the sitemap's item ended")
                        .rewrite(sitemapChunk(fixture.sitemapUrl()))
                        .expect(new Expectation.NoFailedMessages()).build());
    }

    /** Edits the JSON held as text in an API Gateway event's {@code body}. */
    static Consumer<ObjectNode> body(Consumer<ObjectNode> edit) {
        return event -> event.put("body", editJson(event.path("body").asText(), edit));
    }

    /** Points the fetch job of every SQS record at {@code url}, in the message group of its site. */
    static Consumer<ObjectNode> job(String url) {
        String group = SiteKey.of(NormalizedUrl.parse(url)).messageGroupId();
        return event -> event.withArray("Records").forEach(record -> {
            ObjectNode message = (ObjectNode) record;
            message.put("body", editJson(message.path("body").asText(), job -> job.put("url", url)));
            message.with("attributes").put("MessageGroupId", group);
        });
    }

    /** Points the plan message of every SQS record at the list of the sitemap at {@code url}. */
    static Consumer<ObjectNode> sitemapChunk(String url) {
        String key = io.spiderling.core.batch.ItemKind.SITEMAP.key(NormalizedUrl.parse(url));
        return event -> event.withArray("Records").forEach(record -> ((ObjectNode) record).put("body",
                editJson(record.path("body").asText(), message -> message.put("sitemap", key))));
    }

    /** Sets one query parameter of an API Gateway event, in both the parsed map and the raw query string. */
    static Consumer<ObjectNode> query(String name, String value) {
        return event -> {
            ObjectNode parameters = event.with("queryStringParameters");
            parameters.put(name, value);
            List<String> pairs = new ArrayList<>();
            parameters.fields().forEachRemaining(p -> pairs.add(encode(p.getKey()) + "=" + encode(p.getValue()
                    .asText())));
            event.put("rawQueryString", String.join("&", pairs));
        };
    }

    /** Names another object in every record of an S3 notification. */
    static Consumer<ObjectNode> objectKey(String key, long size) {
        return event -> event.withArray("Records").forEach(record -> ((ObjectNode) record.with("s3").with("object"))
                .put("key", key).put("size", size));
    }

    private static void replaceUrl(ArrayNode urls, String from, String to) {
        for (int i = 0; i < urls.size(); i++) {
            if (urls.get(i).asText().equals(from)) {
                urls.set(i, to);
            }
        }
    }

    private static String editJson(String text, Consumer<ObjectNode> edit) {
        try {
            JsonNode json = SampleEvents.JSON.readTree(text);
            if (!(json instanceof ObjectNode object)) {
                throw new IllegalArgumentException("expected a JSON object, got " + text);
            }
            edit.accept(object);
            return object.toString();
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + text, e);
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    /** The table's legend: what each row exercised. */
    static String legend(List<Scenario> scenarios) {
        return scenarios.stream().map(s -> String.format("  %-13s %-31s %s", s.function(), s.event(), s.exercises()))
                .collect(Collectors.joining("\n"));
    }
}
