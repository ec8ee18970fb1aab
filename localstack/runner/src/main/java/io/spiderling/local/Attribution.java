package io.spiderling.local;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * On whose behalf the current thread works, for a {@link Meter}: one set of SDK clients serves every function of the
 * local stack, so a call can only be told apart by the thread that makes it. An invocation's account is inherited,
 * so that the threads it starts (the fetch stage's lanes, a virtual thread per read) count as the invocation; a
 * thread's standing account holds outside invocations (a poller as its queue's event source, the runner's stand-ins
 * for AWS). Each meter keeps its own, typed by what it counts in.
 *
 * @param <A> what a meter attributes work to
 */
public final class Attribution<A> {

    private final ThreadLocal<A> invocation = new InheritableThreadLocal<>();
    private final ThreadLocal<A> standing = new ThreadLocal<>();
    private final A unattributed;

    /** {@code unattributed} is the account of a thread that has none, so that such a call shows. */
    public Attribution(A unattributed) {
        this.unattributed = Objects.requireNonNull(unattributed, "unattributed");
    }

    /** The account calls on this thread belong to now: the invocation's, else the thread's standing one. */
    public A current() {
        A current = invocation.get();
        if (current != null) {
            return current;
        }
        A standingAccount = standing.get();
        return standingAccount == null ? unattributed : standingAccount;
    }

    /** The invocation under way on this thread (or inherited by it), if any. */
    public A invocation() {
        return invocation.get();
    }

    /** Makes {@code account} the standing account of the current thread. */
    public void actAs(A account) {
        standing.set(Objects.requireNonNull(account, "account"));
    }

    /** {@code task}, run with {@code account} as its thread's standing account. */
    public Runnable as(A account, Runnable task) {
        return () -> {
            A before = standing.get();
            standing.set(account);
            try {
                task.run();
            } finally {
                standing.set(before);
            }
        };
    }

    /** Runs {@code call} as {@code account} even inside an invocation: the runner's stand-in for AWS. */
    public <T> T outside(A account, Supplier<T> call) {
        A inside = invocation.get();
        A before = standing.get();
        invocation.remove();
        standing.set(account);
        try {
            return call.get();
        } finally {
            standing.set(before);
            if (inside != null) {
                invocation.set(inside);
            }
        }
    }

    /** Runs {@code call} as an invocation of {@code account}, and the threads it starts with it. */
    public <T> T invoke(A account, Supplier<T> call) {
        A outer = invocation.get();
        invocation.set(account);
        try {
            return call.get();
        } finally {
            if (outer == null) {
                invocation.remove();
            } else {
                invocation.set(outer);
            }
        }
    }
}
