package io.spiderling.aws;

import io.spiderling.core.port.EventSink;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * {@link EventSink} on an SQS queue that listeners read (on AWS, subscribe more queues through SNS if several
 * listeners need every event). The type and id travel as message attributes too, so a listener can filter without
 * parsing the body.
 */
public final class SqsEventSink implements EventSink {

    private final SqsClient sqs;
    private final String queueUrl;

    public SqsEventSink(SqsClient sqs, String queueUrl) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
    }

    @Override
    public void publish(String type, String id, byte[] json) {
        sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody(new String(json, StandardCharsets.UTF_8))
                .messageAttributes(Map.of(
                        "type", MessageAttributeValue.builder().dataType("String").stringValue(type).build(),
                        "eventId", MessageAttributeValue.builder().dataType("String").stringValue(id).build())));
    }
}
