package io.spiderling.lambda.fetch;

import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.port.PageFetcher;
import io.spiderling.lambda.PipelineSettings;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.WriteStream;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.codec.BodyCodec;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * {@link PageFetcher} on the Vert.x web client. The body is streamed into a capped buffer rather than collected whole,
 * so an oversized page costs at most the cap in memory; the time of its first chunk gives the time to first byte.
 */
public final class VertxPageFetcher implements PageFetcher, AutoCloseable {

    /** The response headers kept on the metadata row. */
    private static final List<String> KEPT_HEADERS =
            List.of("content-type", "content-length", "etag", "last-modified", "cache-control", "expires", "location");

    private final WebClient client;
    private final PipelineSettings.Fetch settings;

    public VertxPageFetcher(Vertx vertx, PipelineSettings.Fetch settings) {
        this.settings = settings;
        this.client = WebClient.create(vertx, new WebClientOptions()
                .setUserAgent(settings.userAgent())
                .setConnectTimeout((int) settings.connectTimeout().toMillis())
                .setFollowRedirects(true)
                .setMaxRedirects(settings.maxRedirects())
                .setDecompressionSupported(true)
                .setKeepAlive(true));
    }

    @Override
    public FetchResult fetch(String url) {
        long start = System.nanoTime();
        CappedBody body = new CappedBody(settings.maxBodyBytes(), start);
        try {
            HttpResponse<Void> response = client.getAbs(url)
                    .timeout(settings.totalTimeout().toMillis())
                    .as(BodyCodec.pipe(body))
                    .send()
                    .toCompletionStage().toCompletableFuture()
                    .get(settings.totalTimeout().toMillis() + 1_000, TimeUnit.MILLISECONDS);
            Duration total = Duration.ofNanos(System.nanoTime() - start);
            Map<String, String> headers = new HashMap<>();
            for (String name : KEPT_HEADERS) {
                String value = response.getHeader(name);
                if (value != null) {
                    headers.put(name, value);
                }
            }
            List<String> redirects = response.followedRedirects();
            String finalUrl = redirects.isEmpty() ? url : redirects.get(redirects.size() - 1);
            return new FetchResult.Response(response.statusCode(), headers, body.bytes(), body.truncated(), finalUrl,
                    body.firstByteAfter().orElse(total), total);
        } catch (ExecutionException e) {
            return failure(e.getCause(), start);
        } catch (TimeoutException e) {
            return failure(e, start);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failure(e, start);
        }
    }

    private static FetchResult failure(Throwable cause, long start) {
        Duration total = Duration.ofNanos(System.nanoTime() - start);
        String kind = switch (cause) {
            case UnknownHostException ignored -> "dns";
            case ConnectException ignored -> "connect";
            case SSLException ignored -> "tls";
            case TimeoutException ignored -> "timeout";
            case io.netty.handler.timeout.TimeoutException ignored -> "timeout";
            default -> cause.getClass().getSimpleName().toLowerCase(Locale.ROOT).contains("timeout") ? "timeout" : "io";
        };
        return new FetchResult.Failure(kind, String.valueOf(cause.getMessage()), total);
    }

    @Override
    public void close() {
        client.close();
    }

    /** Keeps the first {@code cap} bytes and drops the rest, remembering that it did. */
    private static final class CappedBody implements WriteStream<Buffer> {
        private final long cap;
        private final long start;
        private final Buffer buffer = Buffer.buffer();
        private boolean truncated;
        private long firstByteNanos = -1;

        CappedBody(long cap, long start) {
            this.cap = cap;
            this.start = start;
        }

        synchronized byte[] bytes() {
            return buffer.getBytes();
        }

        synchronized boolean truncated() {
            return truncated;
        }

        synchronized Optional<Duration> firstByteAfter() {
            return firstByteNanos < 0 ? Optional.empty() : Optional.of(Duration.ofNanos(firstByteNanos - start));
        }

        @Override
        public synchronized Future<Void> write(Buffer data) {
            if (firstByteNanos < 0) {
                firstByteNanos = System.nanoTime();
            }
            long room = cap - buffer.length();
            if (data.length() > room) {
                truncated = true;
                if (room > 0) {
                    buffer.appendBuffer(data, 0, (int) room);
                }
            } else {
                buffer.appendBuffer(data);
            }
            return Future.succeededFuture();
        }

        @Override
        public void write(Buffer data, Handler<AsyncResult<Void>> handler) {
            write(data).onComplete(handler);
        }

        @Override
        public void end(Handler<AsyncResult<Void>> handler) {
            handler.handle(Future.succeededFuture());
        }

        @Override
        public WriteStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
            return this;
        }

        @Override
        public WriteStream<Buffer> setWriteQueueMaxSize(int maxSize) {
            return this;
        }

        @Override
        public boolean writeQueueFull() {
            return false;
        }

        @Override
        public WriteStream<Buffer> drainHandler(Handler<Void> handler) {
            return this;
        }
    }
}
