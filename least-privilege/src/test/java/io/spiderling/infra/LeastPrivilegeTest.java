package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.BucketPrefix;
import io.spiderling.catalog.DynamoDbAction;
import io.spiderling.catalog.EventSource;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.catalog.Permission;
import io.spiderling.catalog.Queue;
import io.spiderling.catalog.S3Action;
import io.spiderling.catalog.Secret;
import io.spiderling.catalog.Table;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Least privilege, proven by the calls the code makes: each function's role in the synthesized template (derived
 * from its catalog entry, never from a recording) against every SDK call the end-to-end and fault suites recorded
 * for it ({@link RecordedCalls}). Both ways:
 * <ul>
 *   <li>every recorded call of a function is allowed by its role, action and resource (and a listing's prefix);
 *   <li>every action the role allows, on every resource, was called at least once, or is in {@link #UNEXERCISED}
 *       with the code path that needs it, or is the wiring's (Lambda's logs, the event source mapping's polling, the
 *       S3 invocations' failure destination), which CDK grants where it wires them.
 * </ul>
 * A failure names the catalog declaration to add or remove. Runs after localstack/e2e in the reactor, on this
 * build's recordings; it fails, saying how to make them, when there are none. A module of its own, which depends on
 * infra-cdk and localstack/e2e, so that the reactor runs it after both, also in a parallel build.
 */
class LeastPrivilegeTest {

    /**
     * Grants the suites do not exercise, each {@code "action resource"}, with the code path that needs them on AWS.
     * Keep this list short: an entry is a path no suite takes, so a regression there would go unseen. One marked
     * {@code sometimes} is a path that some runs of the suites take and others do not (a fault that happens to land
     * there, a race): it may be called.
     */
    record Unexercised(String function, List<String> grants, String codePath, boolean sometimes) {
        Unexercised(String function, List<String> grants, String codePath) {
            this(function, grants, codePath, false);
        }
    }

    private static final String MARKDOWN_AGAIN = "S3BlobStore.putIfAbsent of a Markdown already stored (the same"
            + " main content twice, or an extraction repeated): S3 refuses the PUT, and a HEAD tells its own write";

    static final List<Unexercised> UNEXERCISED = List.of(
            new Unexercised("ingest-queue", List.of("dynamodb:BatchGetItem table:BATCHES",
                    "s3:GetObject object:manifests/*"),
                    "Ingest.submit of a redelivered message: the batch exists, so its header is read back and its"
                    + " manifest looked for (the HTTP ingest takes this path in the suites)"),
            new Unexercised("ingest-queue", List.of("sqs:SendMessage queue:NOTIFY"),
                    "Ingest.scheduleProgress: a queued batch that asks for progress reports (the HTTP ingest's"
                    + " batches take it in the suites)"),
            new Unexercised("canonicalize", List.of("sqs:SendMessage queue:NOTIFY"),
                    "ItemPlanner: a batch with a callback whose every item ends while planned completes, and its"
                    + " callback is queued"),
            new Unexercised("plan", List.of("sqs:SendMessage queue:NOTIFY", "sqs:SendMessage queue:EVENTS"),
                    "ItemPlanner: a chunk that ends a batch's last items while planned completes it", true),
            new Unexercised("fetch", List.of("s3:GetObject object:markdown/*"), MARKDOWN_AGAIN, true),
            new Unexercised("extract", List.of("s3:GetObject object:markdown/*"), MARKDOWN_AGAIN, true),
            new Unexercised("fetch", List.of("dynamodb:BatchWriteItem table:LINKS"),
                    "FetchPage extracting a body it already stored (ExtractContent) while the links index is on"),
            new Unexercised("fetch-dlq", List.of("dynamodb:GetItem table:BATCHES",
                    "dynamodb:BatchGetItem table:BATCHES", "dynamodb:UpdateItem table:BATCHES",
                    "dynamodb:DeleteItem table:URLS", "dynamodb:GetItem table:SITES", "dynamodb:UpdateItem table:SITES",
                    "dynamodb:DeleteItem table:SITES", "dynamodb:Query table:SITES/index/byOrder",
                    "sqs:SendMessage queue:FETCH", "sqs:SendMessage queue:NOTIFY", "sqs:SendMessage queue:EVENTS"),
                    "FetchPage.deadLettered, after the fetch queue gave a job up (FaultThrottleTest when its faults"
                    + " land there): the item ended, the row's claim and the site's place given back, the site's"
                    + " next entries released, the batch completed if that was its last item", true),
            new Unexercised("fetch-dlq", List.of("secretsmanager:GetSecretValue secret:SIGNING_KEYS"),
                    "FetchDeadLetterHandler's init builds FetchPage, which reads the signing keys when signing is on"
                    + " (the local stack's one pipeline reads them once, for fetch)"),
            new Unexercised("extract", List.of("sqs:SendMessage queue:NOTIFY"),
                    "ExtractContent: url.changed to the notify queue for each batch that asked for change notices"
                    + " (the fetch that extracts inline takes it in the suites)"),
            new Unexercised("notify", List.of("secretsmanager:GetSecretValue secret:CLIENTS"),
                    "Pipeline.clients on AWS: the webhook secrets from the clients secret (the local stack reads"
                    + " the clients file, which also authenticates its API)"),
            new Unexercised("api", List.of("secretsmanager:GetSecretValue secret:CLIENTS"),
                    "Admins in gateway mode: a client's admin flag from the clients secret (the local stack reads the"
                    + " clients file, which also authenticates its API)"),
            new Unexercised("notify-dlq", List.of("dynamodb:UpdateItem table:BATCHES"),
                    "NotifyBatch.deadLettered: a delivery the notify queue gave up on, recorded on the header"),
            new Unexercised("api", List.of("sqs:SendMessage queue:NOTIFY", "sqs:SendMessage queue:EVENTS"),
                    "CancelBatch: a cancelled batch completes, to its listeners and its callback"),
            new Unexercised("sweep", List.of("s3:GetObject object:manifests/*", "dynamodb:GetItem table:BATCHES",
                    "dynamodb:BatchGetItem table:BATCHES", "dynamodb:PutItem table:BATCHES",
                    "dynamodb:UpdateItem table:BATCHES", "dynamodb:ConditionCheckItem table:BATCHES",
                    "dynamodb:DeleteItem table:BATCHES", "dynamodb:BatchGetItem table:URLS",
                    "dynamodb:UpdateItem table:URLS", "dynamodb:PutItem table:SITES",
                    "dynamodb:UpdateItem table:SITES", "dynamodb:Query table:SITES/index/byOrder",
                    "sqs:SendMessage queue:FETCH", "sqs:SendMessage queue:NOTIFY", "sqs:SendMessage queue:EVENTS"),
                    "Canonicalize.planStranded: a manifest whose S3 event was lost, planned by the sweep (a fault"
                    + " suite's lost event); Frontier.sweep releasing due entries the wake queue missed", true),
            new Unexercised("sweep", List.of("s3:GetObject object:uploads/*", "s3:GetObject object:planned/*",
                    "s3:PutObject object:planned/*", "sqs:SendMessage queue:PLAN"),
                    "PlanUpload.resumeStranded: an upload whose S3 event was lost is frozen and cut by the sweep",
                    true));

    /** What the event source mapping does with the function's role: poll, delete, extend, look the queue up. */
    private static final Set<String> MAPPING_ACTIONS = Set.of("sqs:ReceiveMessage", "sqs:DeleteMessage",
            "sqs:ChangeMessageVisibility", "sqs:GetQueueAttributes", "sqs:GetQueueUrl");

    @Test
    void roles_whenHeldToTheRecordedCalls_allowEveryCallAndNothingUncalled() throws IOException {
        RecordedCalls recorded = RecordedCalls.ofThisBuild();
        Synthesized deployment = Synth.jvmIam();
        List<String> problems = new ArrayList<>();
        for (RecordedCalls.Call call : recorded.calls()) {
            if (call.caller().equals("unattributed") || call.resource().startsWith("unknown:")) {
                problems.add("a call of no function, or on a resource the stack does not know: " + call
                        + " (a test driving a use case itself runs it in LocalSpiderling.asInvocationOf)");
            }
        }
        List<String> report = new ArrayList<>();
        for (FunctionSpec spec : deployment.props().functions()) {
            List<Policies.Grant> grants = Policies.grants(deployment, spec);
            List<RecordedCalls.Call> calls = recorded.calls().stream()
                    .filter(c -> c.byFunction() && c.function().equals(spec.name())).toList();
            for (RecordedCalls.Call call : calls) {
                if (grants.stream().noneMatch(g -> g.allows(call.action(), call.resource()))) {
                    problems.add(spec.name() + " calls " + call.action() + " on " + call.resource() + " ("
                            + call.count() + "x, as " + call.caller() + "), which its role does not allow: declare "
                            + declarationOf(call) + " in the use case whose code makes the call (Catalog)");
                }
            }
            report.add(spec.name());
            for (Policies.Grant grant : grants) {
                long called = calls.stream().filter(c -> grant.allows(c.action(), c.resource()))
                        .mapToLong(RecordedCalls.Call::count).sum();
                Optional<String> why = called > 0 ? Optional.of(called + (called == 1 ? " call" : " calls"))
                        : wiring(deployment, spec, grant).or(() -> unexercised(grant).map(u -> "listed: "
                                + u.codePath()));
                report.add("  " + grant.shown() + "  <- " + why.orElse("NOTHING"));
                if (why.isEmpty()) {
                    problems.add(spec.name() + "'s role allows " + grant.shown() + ", which no recorded call of "
                            + spec.name() + " needed: remove the declaration that grants it from its use cases"
                            + " (Catalog), or add it to LeastPrivilegeTest.UNEXERCISED with the code path that"
                            + " needs it");
                }
            }
        }
        for (Unexercised u : UNEXERCISED) {
            FunctionSpec spec = deployment.props().functions().stream().filter(f -> f.name().equals(u.function()))
                    .findFirst().orElseThrow(() -> new AssertionError("UNEXERCISED names no function: " + u));
            List<Policies.Grant> granted = Policies.grants(deployment, spec);
            for (String listed : u.grants()) {
                List<Policies.Grant> grants = granted.stream().filter(g -> listed.equals(g.action() + " " + g.resource()))
                        .toList();
                if (grants.isEmpty()) {
                    problems.add("UNEXERCISED lists " + listed + ", which " + u.function() + "'s role does not allow:"
                            + " remove it");
                }
                long called = recorded.calls().stream().filter(c -> c.byFunction()
                        && c.function().equals(u.function())
                        && grants.stream().anyMatch(g -> g.allows(c.action(), c.resource())))
                        .mapToLong(RecordedCalls.Call::count).sum();
                if (called > 0 && !u.sometimes()) {
                    problems.add("UNEXERCISED lists " + listed + " for " + u.function() + ", which the suites now"
                            + " call (" + called + "x): remove it");
                }
            }
        }
        Path out = Path.of("target", "least-privilege.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, report);
        assertTrue(problems.isEmpty(), () -> problems.size() + " least-privilege problems (recordings: "
                + recorded.directory() + ", report: " + out.toAbsolutePath() + "):\n  "
                + String.join("\n  ", problems));
    }

    /** Why the wiring grants it, if it does: what Lambda itself does with the function's role. */
    private static Optional<String> wiring(Synthesized deployment, FunctionSpec spec, Policies.Grant grant) {
        if (grant.action().startsWith("logs:") && grant.resource().startsWith("other:")) {
            return Optional.of("Lambda writes the function's logs to its own log group");
        }
        if (spec.source() instanceof EventSource.QueueSource source
                && grant.resource().equals("queue:" + source.queue().name())
                && MAPPING_ACTIONS.contains(grant.action())) {
            return Optional.of("the event source mapping polls " + source.queue() + " with the function's role");
        }
        if (spec.source() instanceof EventSource.ObjectCreated
                && grant.resource().equals("other:" + deployment.objectEventFailuresId())) {
            return Optional.of("Lambda sends an S3 event whose invocation failed to the failures queue");
        }
        return Optional.empty();
    }

    private static Optional<Unexercised> unexercised(Policies.Grant grant) {
        return UNEXERCISED.stream().filter(u -> u.function().equals(grant.function())
                && u.grants().contains(grant.action() + " " + grant.resource())).findFirst();
    }

    /** The catalog declaration that would allow {@code call}, as the message asking for it shows it. */
    static String declarationOf(RecordedCalls.Call call) {
        String resource = call.resource();
        String action = call.action();
        try {
            if (resource.startsWith("table:")) {
                String[] parts = resource.substring("table:".length()).split("/index/");
                DynamoDbAction dynamo = Arrays.stream(DynamoDbAction.values())
                        .filter(a -> a.iamAction().equals(action)).findFirst().orElseThrow();
                return new Permission.OnTable(Table.valueOf(parts[0]),
                        parts.length > 1 ? Optional.of(parts[1]) : Optional.empty(), dynamo).declaration();
            }
            S3Action s3 = Arrays.stream(S3Action.values()).filter(a -> a.iamAction().equals(action))
                    .findFirst().orElse(null);
            if (s3 != null && (resource.startsWith("object:") || resource.startsWith("bucket:"))) {
                String key = resource.substring(resource.indexOf(':') + 1);
                BucketPrefix prefix = BucketPrefix.of(key).orElseThrow();
                return new Permission.OnObjects(prefix, s3).declaration();
            }
            if (resource.startsWith("queue:") && action.equals("sqs:SendMessage")) {
                return new Permission.SendsTo(Queue.valueOf(resource.substring("queue:".length()))).declaration();
            }
            if (resource.startsWith("secret:")) {
                return new Permission.ReadsSecret(Secret.valueOf(resource.substring("secret:".length())))
                        .declaration();
            }
        } catch (RuntimeException e) {
            // falls through: no declaration of the catalog's vocabulary allows it
        }
        return "(nothing in the catalog's vocabulary allows " + action + " on " + resource + ": extend it)";
    }

}
