package io.spiderling.local.cost;

import java.util.Objects;

/**
 * On whose behalf a call, an invocation or a stored byte was made: a function's invocation, a queue's event source
 * (Lambda's event source mapping on AWS), a client of the deployment, or one of those whose work no deployment pays
 * for. Printed by its {@link #toString() label}, and ordered by it.
 *
 * @param function the function, for {@link Role#FUNCTION} and {@link Role#EVENT_SOURCE}; empty for the others
 */
public record Account(Role role, String function) implements Comparable<Account> {

    public enum Role {
        /** A function's invocation, and the threads it starts. */
        FUNCTION,
        /** A queue's consumer outside its invocations: its receives and deletes. */
        EVENT_SOURCE,
        /** A client of the deployment (the presigned upload of a manifest), billed to the deployment's account. */
        CLIENT,
        /** The benchmark harness: its setup and status polls. Not part of the pipeline's figures. */
        HARNESS,
        /** What the local runner does in AWS's place (listing uploads/ for S3's notification). Not billed on AWS. */
        LOCAL_STAND_IN,
        /** A call on a thread with no account, so that a call on an unexpected thread shows instead of vanishing. */
        UNATTRIBUTED
    }

    public static final Account CLIENT = new Account(Role.CLIENT, "");
    public static final Account HARNESS = new Account(Role.HARNESS, "");
    public static final Account LOCAL = new Account(Role.LOCAL_STAND_IN, "");
    public static final Account UNATTRIBUTED = new Account(Role.UNATTRIBUTED, "");

    public Account {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(function, "function");
        boolean named = role == Role.FUNCTION || role == Role.EVENT_SOURCE;
        if (named == function.isEmpty()) {
            throw new IllegalArgumentException(role + (named ? " needs a function" : " has no function"));
        }
    }

    /** The invocations of {@code function}. */
    public static Account function(String function) {
        return new Account(Role.FUNCTION, function);
    }

    /** The consumer of {@code function}'s queue outside its invocations. */
    public static Account eventSource(String function) {
        return new Account(Role.EVENT_SOURCE, function);
    }

    /** Whether the account is part of the pipeline (a function, an event source or a client), not the harness's. */
    public boolean pipeline() {
        return role == Role.FUNCTION || role == Role.EVENT_SOURCE || role == Role.CLIENT;
    }

    /** {@code fetch}, {@code fetch (SQS event source)}, {@code client}, {@code harness}, {@code local stand-in}, … */
    @Override
    public String toString() {
        return switch (role) {
            case FUNCTION -> function;
            case EVENT_SOURCE -> function + " (SQS event source)";
            case CLIENT -> "client";
            case HARNESS -> "harness";
            case LOCAL_STAND_IN -> "local stand-in";
            case UNATTRIBUTED -> "unattributed";
        };
    }

    @Override
    public int compareTo(Account o) {
        int c = toString().compareTo(o.toString());
        return c != 0 ? c : role.compareTo(o.role);
    }
}
