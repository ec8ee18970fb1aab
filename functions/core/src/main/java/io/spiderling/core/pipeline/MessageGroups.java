package io.spiderling.core.pipeline;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Lambda's partial-batch semantics for SQS, FIFO included.
 *
 * <p>A batch may mix message groups, and each group's messages arrive in order. A handled outcome (fetched, failed
 * with an HTTP error, rejected) is a success. Only an exception, an infrastructure failure, fails a message, and then
 * the rest of that message's group must fail with it: processing them would break the group's order.
 */
public final class MessageGroups {

    private MessageGroups() {}

    /**
     * Handles the messages in order and returns those to report as failed: each one whose handler threw, and every
     * later message of the same group, which is not handled at all.
     */
    public static <M> List<M> process(List<M> messages, Function<M, String> groupOf, Consumer<M> handler) {
        Set<String> failedGroups = new HashSet<>();
        List<M> failed = new ArrayList<>();
        for (M message : messages) {
            String group = groupOf.apply(message);
            if (failedGroups.contains(group)) {
                failed.add(message);
                continue;
            }
            try {
                handler.accept(message);
            } catch (RuntimeException e) {
                System.getLogger(MessageGroups.class.getName())
                        .log(System.Logger.Level.WARNING, "message failed; failing the rest of group " + group, e);
                failedGroups.add(group);
                failed.add(message);
            }
        }
        return failed;
    }
}
