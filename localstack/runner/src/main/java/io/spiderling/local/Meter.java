package io.spiderling.local;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.spiderling.catalog.FunctionSpec;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.function.Supplier;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * What the local runner shows a meter, which a benchmark hands it ({@link LocalSpiderling.Options#withMetering}):
 * the SDK calls of the clients it builds, each handler call as an invocation of its function, the queue pollers as
 * their functions' event sources, and what it does in AWS's place. {@link #NONE}, the default, sees nothing and changes
 * nothing: a user's run is not metered.
 *
 * <p>The runner only marks where each piece of work starts; on whose behalf it runs is the meter's business (the cost
 * meter of the benchmarks keeps it per thread, because one set of SDK clients serves every function).
 */
public interface Meter {

    /** No meter: handlers and pollers run as given, and the functions' metrics lines go nowhere. */
    Meter NONE = new Meter() {};

    /** Interceptors to set on every AWS SDK client the runner builds; how the meter sees the calls. */
    default List<ExecutionInterceptor> interceptors() {
        return List.of();
    }

    /**
     * Builds {@code function}'s handler ({@code build}), as Lambda's init phase does with the function's role: what
     * the handler reads while it is built (the signing keys) is the function's.
     */
    default <T> T init(FunctionSpec function, Supplier<T> build) {
        return build.get();
    }

    /** {@code handler}, each call of which is one invocation of {@code function}. */
    default <I, O> RequestHandler<I, O> handler(FunctionSpec function, RequestHandler<I, O> handler) {
        return handler;
    }

    /** An HTTP function's {@code handler}: each call is an API Gateway request and an invocation of {@code function}. */
    default <O> RequestHandler<APIGatewayV2HTTPEvent, O> httpHandler(FunctionSpec function,
            RequestHandler<APIGatewayV2HTTPEvent, O> handler) {
        return handler;
    }

    /** A poller of {@code function}'s queue, whose own receives and deletes Lambda's event source mapping makes on AWS. */
    default Runnable eventSource(FunctionSpec function, Runnable poller) {
        return poller;
    }

    /** {@code task}, a loop of the runner's own in AWS's place (the upload watch, the events listener). */
    default Runnable standIn(Runnable task) {
        return task;
    }

    /** {@code call}, made by the runner in AWS's place even inside an invocation (the size S3 puts in its event). */
    default <T> T standIn(Supplier<T> call) {
        return call.get();
    }

    /**
     * A URL presigned on this thread for {@code action} ({@code s3:PutObject}, {@code s3:GetObject}) on the bucket's
     * {@code key}: no request is sent, but its holder acts with the presigning function's rights.
     */
    default void presigned(String action, String key) {
    }

    /** Both meters: {@code outer} sees each piece of work as {@code inner} hands it on. */
    static Meter both(Meter outer, Meter inner) {
        return new Meter() {
            @Override
            public List<ExecutionInterceptor> interceptors() {
                return java.util.stream.Stream.concat(outer.interceptors().stream(), inner.interceptors().stream())
                        .toList();
            }

            @Override
            public <T> T init(FunctionSpec function, Supplier<T> build) {
                return outer.init(function, () -> inner.init(function, build));
            }

            @Override
            public <I, O> RequestHandler<I, O> handler(FunctionSpec function, RequestHandler<I, O> handler) {
                return outer.handler(function, inner.handler(function, handler));
            }

            @Override
            public <O> RequestHandler<APIGatewayV2HTTPEvent, O> httpHandler(FunctionSpec function,
                    RequestHandler<APIGatewayV2HTTPEvent, O> handler) {
                return outer.httpHandler(function, inner.httpHandler(function, handler));
            }

            @Override
            public Runnable eventSource(FunctionSpec function, Runnable poller) {
                return outer.eventSource(function, inner.eventSource(function, poller));
            }

            @Override
            public Runnable standIn(Runnable task) {
                return outer.standIn(inner.standIn(task));
            }

            @Override
            public <T> T standIn(Supplier<T> call) {
                return outer.standIn(() -> inner.standIn(call));
            }

            @Override
            public void presigned(String action, String key) {
                outer.presigned(action, key);
                inner.presigned(action, key);
            }

            @Override
            public PrintStream logStream() {
                return inner.logStream();
            }
        };
    }

    /** Where handlers print what goes to standard output on Lambda (the sweep's metrics); locally nobody reads it. */
    default PrintStream logStream() {
        return new PrintStream(OutputStream.nullOutputStream());
    }
}
