package io.spiderling.local;

import io.spiderling.local.cost.Metering;
import io.spiderling.local.cost.SdkCallBilling;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Counts every AWS SDK call made in this JVM for the benchmarks: by account (see {@link Metering}), service and
 * operation, with what AWS would bill for it ({@link SdkCallBilling}). The SDK loads it into every client through
 * {@code software/amazon/awssdk/global/handlers/execution.interceptors}. Retries of one call count once.
 *
 * <p>The account is taken when the call starts, on the calling thread; the call is counted when it ends, successful
 * or not, so that its outcome (a refused condition, an empty receive) can price it.
 */
public final class RequestCounter implements ExecutionInterceptor {

    private static final ExecutionAttribute<String> ACCOUNT = new ExecutionAttribute<>("spiderling.meter.account");
    private static final ExecutionAttribute<SdkCallBilling> BILLING =
            new ExecutionAttribute<>("spiderling.meter.billing");

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (Metering.isAside()) {
            return; // the meter's own reads
        }
        attributes.putAttribute(ACCOUNT, Metering.account());
        attributes.putAttribute(BILLING, new SdkCallBilling(attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME),
                attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME)));
    }

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        SdkCallBilling billing = attributes.getAttribute(BILLING);
        return billing == null ? context.request() : billing.prepare(context.request());
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        SdkCallBilling billing = attributes.getAttribute(BILLING);
        if (billing != null) {
            billing.beforeTransmission(context.request(), context.httpRequest());
        }
    }

    /** Counted here rather than after execution: what the meter asked for is still in the response. */
    @Override
    public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
        SdkCallBilling billing = attributes.getAttribute(BILLING);
        if (billing == null) {
            return context.response();
        }
        billing.succeeded(attributes.getAttribute(ACCOUNT), context.request(), context.response(),
                context.requestBody());
        return billing.restore(context.response());
    }

    @Override
    public Throwable modifyException(Context.FailedExecution context, ExecutionAttributes attributes) {
        SdkCallBilling billing = attributes.getAttribute(BILLING);
        if (billing == null) {
            return context.exception();
        }
        billing.failed(attributes.getAttribute(ACCOUNT), context.request(), context.exception());
        return billing.restore(context.exception());
    }

    /** Calls so far by "service operation", whoever made them, sorted. */
    public static Map<String, Long> snapshot() {
        Map<String, Long> copy = new TreeMap<>();
        Metering.snapshot().byOperation().forEach((call, calls) ->
                copy.merge(SdkCallBilling.sdkName(call.service()) + " " + call.operation(), calls.calls(), Long::sum));
        return copy;
    }
}
