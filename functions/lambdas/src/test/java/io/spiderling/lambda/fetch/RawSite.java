package io.spiderling.lambda.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A site that misbehaves below HTTP: each connection gets the script's bytes, written by hand, for what a well-behaved
 * server library would never send (endless headers, lying lengths, a byte a second). It records what it wrote and
 * whether the client closed the connection.
 */
final class RawSite implements AutoCloseable {

    /** What the site does on one connection, after reading the request head. */
    interface Script {
        void run(Connection connection) throws IOException, InterruptedException;
    }

    private final ServerSocket server;
    private final Script script;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicLong written = new AtomicLong();
    private final CountDownLatch closedByClient = new CountDownLatch(1);
    private volatile boolean writing;

    private RawSite(ServerSocket server, Script script) {
        this.server = server;
        this.script = script;
        Thread.ofVirtual().start(this::accept);
    }

    static RawSite start(Script script) {
        try {
            ServerSocket server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            return new RawSite(server, script);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getLocalPort() + path;
    }

    int connections() {
        return connections.get();
    }

    int requests() {
        return requests.get();
    }

    long written() {
        return written.get();
    }

    /** Whether the script is still writing, that is, has neither finished nor found the connection closed. */
    boolean writing() {
        return writing;
    }

    /**
     * Waits until the client closed a connection, found by a write that failed or by the end of the stream where the
     * next request would start; false if that did not happen in time.
     */
    boolean awaitClientClose(long seconds) throws InterruptedException {
        return closedByClient.await(seconds, TimeUnit.SECONDS);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                connections.incrementAndGet();
                Thread.ofVirtual().start(() -> serve(socket));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            Connection connection = new Connection(socket.getInputStream(), socket.getOutputStream());
            while (connection.readHead()) {
                requests.incrementAndGet();
                writing = true;
                script.run(connection);
                writing = false;
            }
            closedByClient.countDown(); // the client closed the connection instead of sending another request
        } catch (IOException e) {
            if (writing) {
                writing = false;
                closedByClient.countDown();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }

    /** One connection's streams, with the request head already read. */
    final class Connection {
        private final InputStream in;
        private final OutputStream out;

        Connection(InputStream in, OutputStream out) {
            this.in = in;
            this.out = out;
        }

        /** Reads up to the blank line ending a request head; false when the client closed the connection first. */
        boolean readHead() throws IOException {
            int matched = 0;
            int b;
            while ((b = in.read()) >= 0) {
                matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
                if (matched == 4) {
                    return true;
                }
            }
            return false;
        }

        void write(String text) throws IOException {
            write(text.getBytes(StandardCharsets.ISO_8859_1));
        }

        void write(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
            written.addAndGet(bytes.length);
        }

        /** Ends the script's work on the connection: the site closes it. */
        void hangUp() throws IOException {
            out.close();
        }
    }
}
