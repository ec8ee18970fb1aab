package io.spiderling.local;

/**
 * The resource that test classes running a persistent local stack in this JVM share (a CLI run with {@code --data}):
 * ElasticMQ keeps its messages through scalikejdbc's one JVM-wide connection pool, which a stack points at its own
 * folder when it starts and closes when it stops ({@code PersistentQueues}). Two such stacks at once, in classes that
 * run side by side (junit-platform.properties), would close each other's pool: the survivor's storage actor dies,
 * and its queues stall until every ask times out. So the classes that start one hold this lock.
 */
public final class PersistentStacks {

    /** For {@code @ResourceLock}. */
    public static final String POOL = "scalikejdbc's JVM-wide pool, for ElasticMQ's storage";

    private PersistentStacks() {}
}
