package io.spiderling.lambda.fetch;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;
import java.io.ByteArrayOutputStream;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * Copies the bytes of one request as the HTTP client writes them to the connection, for a wire capture: the request
 * line and every header the client sent, Host and any it added itself included, exactly as encoded. It sits in the
 * connection's Netty pipeline just below the HTTP codec (above TLS), so it sees plain HTTP/1.x bytes. Installed for
 * one request and removed when its response arrives; a connection carries one request at a time (no pipelining), so
 * nothing of another request is copied.
 */
final class RequestTap extends ChannelOutboundHandlerAdapter {

    /** The name Vert.x gives the HTTP/1.x client codec in the pipeline. */
    private static final String CODEC = "codec";
    /** A request head larger than this is not kept (Vert.x sends a few hundred bytes). */
    private static final int MAX_BYTES = 64 * 1024;

    private final ChannelPipeline pipeline;
    private final ByteArrayOutputStream written = new ByteArrayOutputStream(512);
    private boolean overflow;

    private RequestTap(ChannelPipeline pipeline) {
        this.pipeline = pipeline;
    }

    /** Installs a tap on the connection; empty when it is not an HTTP/1.x connection this can tap. */
    static Optional<RequestTap> install(HttpConnection connection) {
        if (!(connection instanceof ConnectionBase base)) {
            return Optional.empty();
        }
        ChannelPipeline pipeline = base.channelHandlerContext().pipeline();
        if (pipeline.get(CODEC) == null) {
            return Optional.empty();
        }
        RequestTap tap = new RequestTap(pipeline);
        try {
            pipeline.addBefore(CODEC, null, tap);
        } catch (NoSuchElementException closedMeanwhile) {
            return Optional.empty();
        }
        return Optional.of(tap);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof ByteBuf buf) {
            synchronized (written) {
                int length = buf.readableBytes();
                if (written.size() + length > MAX_BYTES) {
                    overflow = true;
                } else if (!overflow) {
                    byte[] copy = new byte[length];
                    buf.getBytes(buf.readerIndex(), copy);
                    written.writeBytes(copy);
                }
            }
        }
        super.write(ctx, msg, promise);
    }

    /** Removes the tap and returns what was written; empty when it was too large to keep. */
    Optional<byte[]> remove() {
        try {
            pipeline.remove(this);
        } catch (NoSuchElementException alreadyGone) {
            // the connection was closed, and its pipeline emptied
        }
        synchronized (written) {
            return overflow ? Optional.empty() : Optional.of(written.toByteArray());
        }
    }
}
