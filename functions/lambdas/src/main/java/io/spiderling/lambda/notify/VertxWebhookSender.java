package io.spiderling.lambda.notify;

import io.spiderling.core.notify.DeliveryPolicy;
import io.spiderling.core.port.WebhookSender;
import io.spiderling.core.url.RequestUrl;
import io.spiderling.lambda.internal.CheckedAddress;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * {@link WebhookSender} on the Vert.x HTTP client. It connects to an address the callback policy checked, never to
 * what the name resolves to now ({@link RequestOptions#setServer}), keeps the name for the Host header and TLS, follows
 * no redirect, reads at most a few KiB of the answer and gives up after the timeout.
 */
public final class VertxWebhookSender implements WebhookSender, AutoCloseable {

    /** Receivers answer quickly or queue the work; a slow one is retried later rather than waited for. */
    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient client;

    public VertxWebhookSender(Vertx vertx) {
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) TIMEOUT.toMillis())
                .setKeepAlive(false)
                .setForceSni(true)
                .setVerifyHost(true));
    }

    @Override
    public DeliveryPolicy.Attempt post(URI uri, List<InetAddress> addresses, byte[] body,
            Map<String, String> headers) {
        DeliveryPolicy.Attempt last = DeliveryPolicy.Attempt.failed(DeliveryPolicy.Failure.CONNECT, "no address");
        for (InetAddress address : addresses) {
            last = postTo(uri, address, body, headers);
            if (!(last instanceof DeliveryPolicy.Attempt.Failed f && f.failure() == DeliveryPolicy.Failure.CONNECT)) {
                return last;
            }
        }
        return last;
    }

    private DeliveryPolicy.Attempt postTo(URI uri, InetAddress address, byte[] body, Map<String, String> headers) {
        RequestOptions options = CheckedAddress.request(HttpMethod.POST, RequestUrl.from(uri.toString()), address)
                .setConnectTimeout(TIMEOUT.toMillis())
                .setIdleTimeout(TIMEOUT.toMillis());
        headers.forEach(options::addHeader);
        CompletableFuture<Integer> done = new CompletableFuture<>();
        client.request(options).onFailure(done::completeExceptionally).onSuccess(req ->
                req.send(Buffer.buffer(body)).onFailure(done::completeExceptionally).onSuccess(response -> {
                    response.handler(chunk -> {}); // the answer's body is not used; drain it
                    response.end().onComplete(ignored -> done.complete(response.statusCode()));
                }));
        try {
            return DeliveryPolicy.Attempt.status(done.get(TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            done.cancel(true);
            return DeliveryPolicy.Attempt.failed(DeliveryPolicy.Failure.TIMEOUT, "no answer in " + TIMEOUT);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            DeliveryPolicy.Failure failure = cause instanceof ConnectException ? DeliveryPolicy.Failure.CONNECT
                    : cause instanceof SSLException ? DeliveryPolicy.Failure.TLS
                    : cause instanceof java.util.concurrent.TimeoutException
                            || String.valueOf(cause.getMessage()).toLowerCase(Locale.ROOT).contains("timeout")
                            ? DeliveryPolicy.Failure.TIMEOUT : DeliveryPolicy.Failure.IO;
            return DeliveryPolicy.Attempt.failed(failure, String.valueOf(cause.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return DeliveryPolicy.Attempt.failed(DeliveryPolicy.Failure.IO, "interrupted");
        } catch (IllegalArgumentException e) {
            return DeliveryPolicy.Attempt.failed(DeliveryPolicy.Failure.IO, e.getMessage());
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
