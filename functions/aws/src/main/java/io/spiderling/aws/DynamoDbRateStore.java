package io.spiderling.aws;

import static io.spiderling.aws.Attrs.n;
import static io.spiderling.aws.Attrs.number;
import static io.spiderling.aws.Attrs.requiredNumber;
import static io.spiderling.aws.Attrs.s;
import static io.spiderling.aws.Attrs.string;

import io.spiderling.core.politeness.FetchOutcome;
import io.spiderling.core.politeness.PauseCause;
import io.spiderling.core.politeness.SiteRate;
import io.spiderling.core.port.RateStore;
import io.spiderling.core.url.SiteKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * {@link RateStore} on the {@code sites} table: {@code pk = RATE#<site>}, {@code sk = rate}, one item per site key
 * (Aragog's rate item). Every write is a put conditional on the version read ({@value #AT_VERSION}; for a site read
 * with no state, {@value #NO_STATE}), so two fetchers deciding on the same state cannot both win: the loser decides
 * again on the state that comes back with the refusal. {@code ttl} lets an idle site's state
 * disappear after a week.
 *
 * <p>Why the site is paused goes in the same item and the same write as the pause: a small map {@code pauseCause},
 * {@code {kind: "throttled", status, retryAfterMs}} or {@code {kind: "failures", urls, last}} (a {@link FetchOutcome}
 * wire name). A site never paused has none. A cause this version cannot read (a newer kind, or a field missing)
 * reads as a pause of unknown cause rather than failing the read.
 */
public final class DynamoDbRateStore implements RateStore {

    /**
     * Version 0 is a site with no state: the item is absent (or was stored at version 0). Both conditions admit this
     * very write applied already ({@link WriterToken}): a save whose answer was lost and that the SDK sent again would
     * otherwise read as a conflict, and its caller would decide again, on its own state, and take a second slot while
     * the first stayed in flight until its lease lapsed.
     */
    static final String NO_STATE = WriterToken.condition("attribute_not_exists(pk) OR version = :read");
    static final String AT_VERSION = WriterToken.condition("version = :read");
    private static final Duration IDLE_TTL = Duration.ofDays(7);

    private final DynamoDbClient dynamo;
    private final String table;
    private final Clock clock;

    public DynamoDbRateStore(DynamoDbClient dynamo, String table, Clock clock) {
        this.dynamo = dynamo;
        this.table = table;
        this.clock = clock;
    }

    static Map<String, AttributeValue> key(SiteKey site) {
        return Map.of("pk", s("RATE#" + site.value()), "sk", s("rate"));
    }

    /**
     * Times are stored to the millisecond, rounded up: a slot rounded down would let the next one, computed from it,
     * come up to a millisecond early.
     */
    static long ceilMillis(Instant at) {
        long millis = at.toEpochMilli();
        return at.getNano() % 1_000_000 == 0 ? millis : millis + 1;
    }

    @Override
    public Optional<SiteRate> find(SiteKey site) {
        return state(dynamo.getItem(b -> b.tableName(table).key(key(site)).consistentRead(true)).item());
    }

    /** One BatchGetItem per hundred sites, eventually consistent: for reports, not for decisions. */
    @Override
    public Map<SiteKey, SiteRate> findAll(Collection<SiteKey> sites) {
        Map<SiteKey, SiteRate> found = new LinkedHashMap<>();
        BatchGets.all(dynamo, table, new LinkedHashSet<>(sites).stream().map(DynamoDbRateStore::key).toList(), false)
                .forEach(item -> state(item).ifPresent(rate ->
                        found.put(new SiteKey(item.get("pk").s().substring("RATE#".length())), rate)));
        return found;
    }

    private static Optional<SiteRate> state(Map<String, AttributeValue> item) {
        if (item == null || item.isEmpty()) {
            return Optional.empty();
        }
        List<Instant> inFlight = item.containsKey("inFlight")
                ? item.get("inFlight").ns().stream().map(v -> Instant.ofEpochMilli(Long.parseLong(v))).toList()
                : List.of();
        Instant pausedUntil = Instant.ofEpochMilli(requiredNumber(item, "pausedUntil"));
        if (!pausedUntil.equals(Instant.EPOCH) && !item.containsKey("pauseCause")) {
            // Every pause is written with its cause, in the same put.
            throw new IllegalStateException("rate item " + item.get("pk") + " is paused with no cause");
        }
        return Optional.of(SiteRate.builder().lastSlot(Instant.ofEpochMilli(requiredNumber(item, "lastSlot")))
                .interval(Duration.ofMillis(requiredNumber(item, "intervalMs")))
                .baseInterval(Duration.ofMillis(requiredNumber(item, "baseIntervalMs"))).pausedUntil(pausedUntil)
                .pauseCause(item.containsKey("pauseCause") ? pauseCause(item.get("pauseCause").m()) : Optional.empty())
                .throttles((int) requiredNumber(item, "throttles")).successes((int) requiredNumber(item, "successes"))
                .responseTime(Duration.ofMillis(requiredNumber(item, "responseTimeMs"))).inFlight(inFlight)
                .failing(item.containsKey("failing") ? item.get("failing").ss() : List.of())
                .version(requiredNumber(item, "version")).build());
    }

    /** The stored cause; empty when its kind or a field is missing or unknown to this version. */
    static Optional<PauseCause> pauseCause(Map<String, AttributeValue> m) {
        if (m == null) {
            return Optional.empty();
        }
        Optional<Long> status = number(m, "status");
        Optional<Long> urls = number(m, "urls");
        return switch (string(m, "kind").orElse("")) {
            case "throttled" -> status.map(st -> new PauseCause.Throttled(st.intValue(),
                    number(m, "retryAfterMs").map(Duration::ofMillis)));
            case "failures" -> urls.filter(u -> u >= 1).flatMap(u -> string(m, "last")
                    .flatMap(FetchOutcome::fromWireName).map(last -> new PauseCause.Failures(u.intValue(), last)));
            default -> Optional.empty();
        };
    }

    static AttributeValue pauseCause(PauseCause cause) {
        Map<String, AttributeValue> m = new HashMap<>();
        switch (cause) {
            case PauseCause.Throttled t -> {
                m.put("kind", s("throttled"));
                m.put("status", n(t.status()));
                t.retryAfter().ifPresent(d -> m.put("retryAfterMs", n(d.toMillis())));
            }
            case PauseCause.Failures f -> {
                m.put("kind", s("failures"));
                m.put("urls", n(f.urls()));
                m.put("last", s(f.last().wireName()));
            }
        }
        return AttributeValue.fromM(m);
    }

    @Override
    public Written save(SiteKey site, SiteRate r, long readVersion) {
        Map<String, AttributeValue> item = new HashMap<>(key(site));
        item.put("lastSlot", n(ceilMillis(r.lastSlot())));
        item.put("intervalMs", n(r.interval().toMillis()));
        item.put("baseIntervalMs", n(r.baseInterval().toMillis()));
        item.put("pausedUntil", n(r.pausedUntil().toEpochMilli()));
        r.pauseCause().ifPresent(cause -> item.put("pauseCause", pauseCause(cause)));
        item.put("throttles", n(r.throttles()));
        item.put("successes", n(r.successes()));
        item.put("responseTimeMs", n(r.responseTime().toMillis()));
        if (!r.inFlight().isEmpty()) {
            // A number set: slots are distinct, being at least one interval apart.
            item.put("inFlight", AttributeValue.fromNs(r.inFlight().stream()
                    .map(at -> Long.toString(ceilMillis(at))).distinct().toList()));
        }
        if (!r.failing().isEmpty()) {
            item.put("failing", AttributeValue.fromSs(r.failing()));
        }
        item.put("version", n(r.version()));
        item.put("ttl", n(clock.instant().plus(IDLE_TTL).getEpochSecond()));
        WriterToken writer = WriterToken.fresh();
        try {
            // A state read at a version and deleted since (its TTL) is no longer the one read: refused, as the port says.
            dynamo.putItem(b -> b.tableName(table).item(writer.stamp(item))
                    .conditionExpression(readVersion == 0 ? NO_STATE : AT_VERSION)
                    .expressionAttributeValues(writer.values(Map.of(":read", n(readVersion))))
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
            return new Written.Saved();
        } catch (ConditionalCheckFailedException raced) {
            // The winner's state comes back with the refusal (none when the item was deleted meanwhile).
            return new Written.Conflict(state(raced.hasItem() ? raced.item() : null));
        }
    }
}
