package io.spiderling.testkit;

import com.amazonaws.services.dynamodbv2.local.server.LocalDynamoDBRequestHandler;
import com.amazonaws.services.dynamodbv2.local.server.LocalDynamoDBServerHandler;
import io.spiderling.testkit.internal.PersistentQueues;
import io.spiderling.testkit.internal.QuietLogging;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import io.spiderling.catalog.ConfigKey;
import io.spiderling.catalog.ConfigKeys;
import io.spiderling.catalog.Queue;
import io.spiderling.catalog.Secret;
import io.spiderling.catalog.Table;
import java.util.LinkedHashMap;

/**
 * ElasticMQ (SQS), DynamoDB Local, s3proxy (S3) and a small Secrets Manager ({@link EmbeddedSecretsManager}), running
 * in this JVM on free ports of 127.0.0.1.
 *
 * <p>Each emulator is a real HTTP endpoint, so code under test can be handed {@link #sqsEndpoint()} and friends through
 * its ordinary configuration. Started with {@link #start()}, everything is in memory and lost on {@link #close()};
 * started on a {@link DataFolder} ({@link #start(DataFolder)}), every emulator keeps its data there: DynamoDB Local's
 * file database, s3proxy's filesystem store, ElasticMQ's H2 message storage and the secrets' JSON file.
 *
 * <p>Starting also sets logback's root level to WARN when no logback configuration file is present, because the
 * emulators log heavily at logback's DEBUG default and that made the test suite four times slower. Supply a
 * {@code logback-test.xml} to choose other levels.
 */
public final class EmbeddedAws implements AutoCloseable {

    public static final String REGION = "us-east-1";
    public static final String ACCESS_KEY = "local";
    public static final String SECRET_KEY = "local-secret";
    /** The account id in the ARNs the emulators make up. */
    public static final String ACCOUNT = "000000000000";

    private static final String LOOPBACK = "127.0.0.1";

    private final Emulator sqsServer;
    private final Emulator dynamoDbServer;
    private final Emulator s3Server;
    private final SqsClient sqs;
    private final DynamoDbClient dynamoDb;
    private final S3Client s3;
    private final S3Presigner s3Presigner;
    private final EmbeddedSecretsManager secretsManagerServer;
    private final SecretsManagerClient secretsManager;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Optional<DataFolder> dataFolder;

    private EmbeddedAws(Emulator sqsServer, Emulator dynamoDbServer, Emulator s3Server,
            EmbeddedSecretsManager secretsManagerServer, Optional<DataFolder> dataFolder) {
        this.dataFolder = dataFolder;
        this.sqsServer = sqsServer;
        this.dynamoDbServer = dynamoDbServer;
        this.s3Server = s3Server;
        this.secretsManagerServer = secretsManagerServer;
        this.secretsManager = configure(SecretsManagerClient.builder(), secretsManagerServer.endpoint()).build();
        this.sqs = configure(SqsClient.builder(), sqsServer.endpoint()).build();
        this.dynamoDb = configure(DynamoDbClient.builder(), dynamoDbServer.endpoint()).build();
        this.s3 = configure(S3Client.builder(), s3Server.endpoint()).forcePathStyle(true).build();
        this.s3Presigner = S3Presigner.builder().region(Region.of(REGION))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .endpointOverride(s3Server.endpoint())
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                .build();
    }

    /** Starts a new stack in memory; the caller closes it. */
    public static EmbeddedAws start() {
        return start(Optional.empty());
    }

    /**
     * Starts a new stack that keeps its data in {@code folder}, and finds there what an earlier stack on it left; the
     * caller closes the stack, then the folder (which stays locked until then). Messages that were in flight when the
     * earlier process died are visible again at once: the folder's lock proves no consumer still holds them.
     */
    public static EmbeddedAws start(DataFolder folder) {
        return start(Optional.of(folder));
    }

    private static EmbeddedAws start(Optional<DataFolder> folder) {
        QuietLogging.apply();
        // One after the other: on two cores, starting them in parallel measured no faster, as class loading and the JIT
        // already keep both cores busy.
        List<Callable<Emulator>> starters = List.of(() -> startElasticMq(folder),
                () -> startDynamoDbLocal(folder), () -> startS3Proxy(folder));
        List<Emulator> started = new ArrayList<>();
        try {
            for (Callable<Emulator> starter : starters) {
                started.add(starter.call());
            }
        } catch (Exception e) {
            IllegalStateException failure = new IllegalStateException("An embedded AWS emulator failed to start", e);
            started.forEach(emulator -> closeQuietly(emulator.server(), failure));
            throw failure;
        }
        EmbeddedSecretsManager secrets = folder.map(f -> EmbeddedSecretsManager.start(REGION, ACCOUNT,
                f.folder("secretsmanager").resolve("secrets.json"))).orElseGet(() -> EmbeddedSecretsManager.start(
                REGION, ACCOUNT));
        folder.ifPresent(DataFolder::markUsed);
        return new EmbeddedAws(started.get(0), started.get(1), started.get(2), secrets, folder);
    }

    /** The folder this stack keeps its data in; empty for a stack in memory. */
    public Optional<DataFolder> dataFolder() {
        return dataFolder;
    }

    public URI sqsEndpoint() {
        return sqsServer.endpoint();
    }

    public URI dynamoDbEndpoint() {
        return dynamoDbServer.endpoint();
    }

    public URI s3Endpoint() {
        return s3Server.endpoint();
    }

    public URI secretsManagerEndpoint() {
        return secretsManagerServer.endpoint();
    }

    public SecretsManagerClient secretsManager() {
        return secretsManager;
    }

    public SqsClient sqs() {
        return sqs;
    }

    /** A client of its own to the emulated SQS, with {@code interceptors} on every call; the caller closes it. */
    public SqsClient sqs(ExecutionInterceptor... interceptors) {
        return configure(SqsClient.builder(), sqsServer.endpoint())
                .overrideConfiguration(c -> List.of(interceptors).forEach(c::addExecutionInterceptor)).build();
    }

    public DynamoDbClient dynamoDb() {
        return dynamoDb;
    }

    /**
     * A client of its own to the emulated DynamoDB, with {@code interceptors} on every call (testkit's
     * {@code FaultInjector}, the benchmarks' meter); the caller closes it.
     */
    public DynamoDbClient dynamoDb(ExecutionInterceptor... interceptors) {
        return configure(DynamoDbClient.builder(), dynamoDbServer.endpoint())
                .overrideConfiguration(c -> List.of(interceptors).forEach(c::addExecutionInterceptor)).build();
    }

    public S3Client s3() {
        return s3;
    }

    /** A client of its own to the emulated S3, with {@code interceptors} on every call; the caller closes it. */
    public S3Client s3(ExecutionInterceptor... interceptors) {
        return configure(S3Client.builder(), s3Server.endpoint()).forcePathStyle(true)
                .overrideConfiguration(c -> List.of(interceptors).forEach(c::addExecutionInterceptor)).build();
    }

    /** Signs URLs against the emulated S3, as the functions' presigner does against S3. */
    public S3Presigner s3Presigner() {
        return s3Presigner;
    }

    /** Creates one isolated set of Spiderling resources named after {@code prefix}: {@link SpiderlingProvisioner}. */
    public StackResources provision(String prefix) {
        return SpiderlingProvisioner.provision(sqs, dynamoDb, s3, secretsManager, prefix);
    }

    /**
     * The functions' configuration (keys of {@link ConfigKeys}, by name) that points them at this stack and at the
     * resources {@code r}: the endpoints and credentials, and every resource name the catalog gives a key. One map
     * for the Quarkus tests, the local runner and the native check. The clients secret is left out: local runs read
     * a clients file instead; add it to read the secret.
     */
    public Map<String, String> functionConfig(StackResources r) {
        Map<ConfigKey<?>, String> config = new LinkedHashMap<>();
        config.put(ConfigKeys.AWS_REGION, REGION);
        config.put(ConfigKeys.AWS_ENDPOINT_SQS, sqsEndpoint().toString());
        config.put(ConfigKeys.AWS_ENDPOINT_DYNAMODB, dynamoDbEndpoint().toString());
        config.put(ConfigKeys.AWS_ENDPOINT_S3, s3Endpoint().toString());
        config.put(ConfigKeys.AWS_ENDPOINT_SECRETSMANAGER, secretsManagerEndpoint().toString());
        config.put(ConfigKeys.AWS_ACCESS_KEY_ID, ACCESS_KEY);
        config.put(ConfigKeys.AWS_SECRET_ACCESS_KEY, SECRET_KEY);
        config.put(ConfigKeys.BUCKET, r.bucket());
        for (Table table : Table.values()) {
            config.put(table.configKey(), r.table(table));
        }
        for (Queue queue : Queue.values()) {
            queue.configKey().ifPresent(key -> config.put(key, r.queueUrl(queue)));
        }
        Map<String, String> byName = new LinkedHashMap<>();
        config.forEach((key, value) -> byName.put(key.name(), value));
        return byName;
    }

    /** {@link #functionConfig} plus the secrets' ARNs, as a deployment sets them. */
    public Map<String, String> functionConfigWithSecrets(StackResources r) {
        Map<String, String> config = new LinkedHashMap<>(functionConfig(r));
        for (Secret secret : Secret.values()) {
            config.put(secret.configKey().name(), r.secret(secret));
        }
        return config;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        sqs.close();
        dynamoDb.close();
        s3.close();
        s3Presigner.close();
        secretsManager.close();
        secretsManagerServer.close();
        IllegalStateException failure = new IllegalStateException("An embedded AWS emulator failed to stop");
        List.of(s3Server, dynamoDbServer, sqsServer).forEach(emulator -> closeQuietly(emulator.server(), failure));
        if (failure.getSuppressed().length > 0) {
            throw failure;
        }
    }

    private static <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B configure(
            B builder, URI endpoint) {
        return builder.endpointOverride(endpoint)
                .region(Region.of(REGION))
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .httpClientBuilder(UrlConnectionHttpClient.builder());
    }

    private static Emulator startElasticMq(Optional<DataFolder> folder) throws Exception {
        if (folder.isPresent()) {
            PersistentQueues.Started started = PersistentQueues.start(LOOPBACK, folder.get().folder("sqs"));
            return new Emulator(endpoint(started.port()), started.stop());
        }
        SQSRestServer server = SQSRestServerBuilder.withInterface(LOOPBACK).withDynamicPort().start();
        int port = server.waitUntilStarted().localAddress().getPort();
        return new Emulator(endpoint(port), server::stopAndWait);
    }

    /**
     * DynamoDB Local's stream scheduler checks its stop flag only every 7.5 minutes, on a non-daemon thread, so it
     * would keep the JVM alive that long after close. Threads join their creator's group, so starting the server from
     * a group of our own lets close interrupt every thread it left behind.
     */
    private static Emulator startDynamoDbLocal(Optional<DataFolder> folder) throws Exception {
        ThreadGroup threads = new ThreadGroup("dynamodb-local");
        Optional<String> dbPath = folder.map(f -> f.folder("dynamodb").toString());
        FutureTask<Emulator> start = new FutureTask<>(() -> startDynamoDbLocal(threads, dbPath));
        new Thread(threads, start, "dynamodb-local-start").start();
        return start.get();
    }

    /**
     * Mounts DynamoDB Local's handler on a Jetty server of our own instead of using {@code ServerRunner}: its server
     * listens on every interface and needs a port chosen in advance, so two JVMs could race for it. Skipping
     * {@code ServerRunner} also skips its telemetry, which would otherwise try to reach AWS on every start.
     */
    private static Emulator startDynamoDbLocal(ThreadGroup threads, Optional<String> dbPath) throws Exception {
        // One database for every access key and region, as "-sharedDb" gives: in memory ("-inMemory"), or the file
        // shared-local-instance.db in dbPath ("-dbPath").
        LocalDynamoDBServerHandler handler = new LocalDynamoDBServerHandler(
                new LocalDynamoDBRequestHandler(0, dbPath.isEmpty(), dbPath.orElse(null), true, false), null);
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost(LOOPBACK);
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new ContextHandler(handler));
        AutoCloseable stop = () -> {
            server.stop();
            handler.close();
            Thread[] leftovers = new Thread[threads.activeCount() + 1];
            for (int i = 0, count = threads.enumerate(leftovers); i < count; i++) {
                leftovers[i].interrupt();
            }
        };
        try {
            server.start();
        } catch (Exception e) {
            closeQuietly(stop, e);
            throw e;
        }
        return new Emulator(endpoint(connector.getLocalPort()), stop);
    }

    private static Emulator startS3Proxy(Optional<DataFolder> folder) throws Exception {
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(folder.isPresent() ? new FilesystemNio2BlobStore(folder.get().folder("s3").toString())
                        : new TransientNio2BlobStore())
                .endpoint(URI.create("http://" + LOOPBACK + ":0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .build();
        // Synchronous: S3Proxy.start() is Jetty's Server.start(), which returns STARTED or throws.
        proxy.start();
        return new Emulator(endpoint(proxy.getPort()), proxy::stop);
    }

    private static URI endpoint(int port) {
        return URI.create("http://" + LOOPBACK + ":" + port);
    }

    private static void closeQuietly(AutoCloseable server, Exception failure) {
        try {
            server.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }

    private record Emulator(URI endpoint, AutoCloseable server) {}
}
