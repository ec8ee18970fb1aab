package io.spiderling.local.cost;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Counts the AWS SDK calls of the clients it is set on into its {@link Metering}: by account, service and operation,
 * with what AWS would bill for it ({@link SdkCallBilling}). Retries of one call count once.
 *
 * <p>The account is taken when the call starts, on the calling thread; the call is counted when it ends, successful
 * or not, so that its outcome (a refused condition, an empty receive) can price it.
 */
final class RequestCounter implements ExecutionInterceptor {

    private static final ExecutionAttribute<Account> ACCOUNT = new ExecutionAttribute<>("spiderling.meter.account");
    private static final ExecutionAttribute<SdkCallBilling> BILLING =
            new ExecutionAttribute<>("spiderling.meter.billing");

    private final Metering metering;

    RequestCounter(Metering metering) {
        this.metering = metering;
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        attributes.putAttribute(ACCOUNT, metering.account());
        attributes.putAttribute(BILLING, new SdkCallBilling(metering,
                attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME),
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
}
