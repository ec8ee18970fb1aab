package io.spiderling.testkit.internal;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.pattern.Patterns;
import org.elasticmq.actor.QueueManagerActor;
import org.elasticmq.actor.queue.QueueEvent;
import org.elasticmq.persistence.sql.SqlQueuePersistenceActor;
import org.elasticmq.persistence.sql.SqlQueuePersistenceConfig;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import org.elasticmq.util.NowProvider;
import scala.Option;
import scala.util.Either;

/**
 * ElasticMQ with its message storage: every queue and message written through to an H2 database file, and restored
 * from it on start, as the standalone server's {@code messages-storage} does. The REST builder has no switch for it, so
 * this wires the server's parts the way its {@code ElasticMQServer} does: a persistence actor that listens to the
 * queue manager's events, then a restore before the first request.
 *
 * <p>ElasticMQ's SQL storage opens its database through scalikejdbc's one JVM-wide connection pool, set on its first
 * use; so that a later stack of this JVM on another folder does not write into the first one's file, the pool is
 * pointed at this stack's file before each start and closed at stop. So one persistent stack runs in a JVM at a
 * time: a second one's stop would close the first's pool, its storage actor would die, and its queues would stall
 * (ElasticMQ logs "Failed to notify queue event listener" and ask timeouts). The end-to-end tests that start one
 * hold a lock for it.
 */
public final class PersistentQueues {

    private static final Duration RESTORE_TIMEOUT = Duration.ofSeconds(60);

    private PersistentQueues() {}

    /** A started server and how to stop it. */
    public record Started(SQSRestServer server, int port, AutoCloseable stop) {}

    /**
     * Starts ElasticMQ on {@code host} with a free port, its storage in {@code folder}. Messages that were in flight
     * when the last process stopped (received, not deleted) are made visible again at once rather than after their
     * visibility timeout: the caller holds the data folder's lock, so no consumer can still hold them.
     */
    public static Started start(String host, Path folder) throws Exception {
        String url = "jdbc:h2:file:" + folder.resolve("queues").toAbsolutePath();
        int released = releaseInFlight(url, System.currentTimeMillis());
        if (released > 0) {
            System.getLogger(PersistentQueues.class.getName()).log(System.Logger.Level.INFO,
                    released + " messages in flight at the last stop are visible again");
        }
        scalikejdbc.ConnectionPool$ pools = scalikejdbc.ConnectionPool$.MODULE$;
        var settings = pools.singleton$default$4();
        pools.singleton(url, "", "", settings, pools.singleton$default$5(url, "", "", settings));
        SqlQueuePersistenceConfig config = new SqlQueuePersistenceConfig(true, "org.h2.Driver", url, "", "", false);
        ActorSystem system = ActorSystem.create("elasticmq");
        try {
            ActorRef storage = system.actorOf(Props.create(SqlQueuePersistenceActor.class,
                    () -> new SqlQueuePersistenceActor(config, scala.collection.immutable.List$.MODULE$.empty())));
            ActorRef queues = system.actorOf(Props.create(QueueManagerActor.class,
                    () -> new QueueManagerActor(new NowProvider(), SQSRestServerBuilder.sqsLimits(),
                            Option.apply(storage))));
            Object restored = Patterns.ask(storage, new QueueEvent.Restore(queues), RESTORE_TIMEOUT)
                    .toCompletableFuture().get(RESTORE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (restored instanceof Either<?, ?> either && either.isLeft()) {
                throw new IllegalStateException("ElasticMQ could not restore its queues from " + url + ": "
                        + either.left().get());
            }
            SQSRestServer server = SQSRestServerBuilder.withActorSystem(system).withQueueManagerActor(queues)
                    .withQueueEventListener(storage).withInterface(host).withDynamicPort().start();
            int port = server.waitUntilStarted().localAddress().getPort();
            AutoCloseable stop = () -> {
                try {
                    server.stopAndWait();
                } finally {
                    system.terminate();
                    system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
                    pools.closeAll();
                }
            };
            return new Started(server, port, stop);
        } catch (Exception | Error e) {
            system.terminate();
            pools.closeAll();
            throw e;
        }
    }

    /**
     * Sets every received, not deleted message's next delivery to {@code now}, in ElasticMQ's message tables
     * ({@code message_<queue>_<hash>}, one per queue), before ElasticMQ reads them. Messages never received (a delay
     * not yet over) keep theirs. Returns how many messages changed.
     */
    static int releaseInFlight(String url, long now) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, "", "")) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = connection.getMetaData().getTables(null, "PUBLIC", "MESSAGE\\_%", null)) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME"));
                }
            }
            int changed = 0;
            for (String table : tables) {
                try (PreparedStatement update = connection.prepareStatement("UPDATE \"" + table
                        + "\" SET NEXT_DELIVERY = ? WHERE RECEIVED IS NOT NULL AND NEXT_DELIVERY > ?")) {
                    update.setLong(1, now);
                    update.setLong(2, now);
                    changed += update.executeUpdate();
                }
            }
            return changed;
        }
    }
}
