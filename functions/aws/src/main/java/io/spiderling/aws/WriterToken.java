package io.spiderling.aws;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Makes a conditional write find itself when the SDK sends it twice.
 *
 * <p>The SDK sends a call again when its answer was lost (a 500 after the write applied, a dropped connection). A
 * condition that held for the first attempt (absent, at version N, not set yet) then fails for the second, which meets
 * the first attempt's own write, and the caller takes its own write for another's: a rate slot it holds stays in
 * flight until its lease lapses (two such block a site for two minutes), a completion it recorded is taken as
 * recorded by another caller and never emitted, a claim it holds looks held by someone else.
 *
 * <p>So each such write carries a token of its own in {@value #ATTRIBUTE}, the same in every attempt the SDK makes of
 * the one call, and its condition admits that token ({@link #condition}): the second attempt applies again, which
 * changes nothing, since it writes what the first wrote. Only writes that repeat to the same result may use it (a
 * put of a whole item, SETs of given values), and what changes between the two attempts is another writer's: its own
 * token then refuses the second attempt, as it should.
 *
 * <p>Transactions need none of this to apply once: the SDK gives every TransactWriteItems call a client request token,
 * the same in its retries, and DynamoDB applies a call it has seen that token for (within ten minutes) only once. But a
 * caller that must know whether its call applied after an error (the frontier's releases, whose jobs must then be
 * sent) stamps the items with a token and reads one back ({@link #on}).
 */
final class WriterToken {

    /** The attribute the token is written to, in every item such a write touches. */
    static final String ATTRIBUTE = "writer";
    static final String PLACEHOLDER = ":writer";
    /** What a condition is widened with. */
    static final String OR_MINE = " OR " + ATTRIBUTE + " = " + PLACEHOLDER;

    private final AttributeValue value;

    private WriterToken(AttributeValue value) {
        this.value = value;
    }

    /** A token for one call: one per call, never per attempt. */
    static WriterToken fresh() {
        return new WriterToken(AttributeValue.fromS(UUID.randomUUID().toString()));
    }

    /** The condition, or this very write already applied. */
    static String condition(String condition) {
        return "(" + condition + ")" + OR_MINE;
    }

    /** The item to put, with the token. */
    Map<String, AttributeValue> stamp(Map<String, AttributeValue> item) {
        Map<String, AttributeValue> stamped = new HashMap<>(item);
        stamped.put(ATTRIBUTE, value);
        return stamped;
    }

    /** The expression's values, with the token's. */
    Map<String, AttributeValue> values(Map<String, AttributeValue> values) {
        Map<String, AttributeValue> all = new HashMap<>(values);
        all.put(PLACEHOLDER, value);
        return all;
    }

    /** Whether the item (as read; null when absent) carries this token: this very write applied to it. */
    boolean on(Map<String, AttributeValue> item) {
        return item != null && value.equals(item.get(ATTRIBUTE));
    }

    /** The clause an update's SET adds, so that the item carries the token. */
    static String set() {
        return ATTRIBUTE + " = " + PLACEHOLDER;
    }
}
