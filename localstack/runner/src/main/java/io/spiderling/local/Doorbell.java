package io.spiderling.local;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * Rings when a message is sent to one queue, so that pollers which pause between short polls (the fetch queue's,
 * {@link LocalSpiderling#FIFO_RECEIVE_PAUSE}) poll again at once instead of after their pause: on AWS the mapping
 * long-polls, and a single URL's job is received as soon as it is sent. The pause still spaces polls while nothing is
 * sent. Rings are counted, so a send during a poll is not missed.
 */
final class Doorbell {

    private final String queueUrl;
    private long rings;

    Doorbell(String queueUrl) {
        this.queueUrl = queueUrl;
    }

    synchronized void ring() {
        rings++;
        notifyAll();
    }

    /** How many times it rang so far: read before a poll, passed to {@link #await} after it. */
    synchronized long rings() {
        return rings;
    }

    /** Waits up to {@code pause}, or less if it rang since {@code seen}. */
    synchronized void await(long seen, Duration pause) throws InterruptedException {
        long deadline = System.nanoTime() + pause.toNanos();
        while (rings == seen) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    /** The interceptor, on every SDK client of the stack, that rings it after a successful send to its queue. */
    ExecutionInterceptor onSends() {
        return new ExecutionInterceptor() {
            @Override
            public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
                String target = switch (context.request()) {
                    case SendMessageRequest one -> one.queueUrl();
                    case SendMessageBatchRequest many -> many.queueUrl();
                    default -> null;
                };
                if (queueUrl.equals(target)) {
                    ring();
                }
            }
        };
    }
}
