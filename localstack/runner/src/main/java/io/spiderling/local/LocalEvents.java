package io.spiderling.local;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.models.s3.S3EventNotification;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/** Builds the events AWS would deliver to the functions, from what the embedded stack holds. */
final class LocalEvents {

    static final String REGION = "us-east-1";

    private LocalEvents() {}

    /** An SQS batch as Lambda's event source mapping delivers it, group ids included for FIFO queues. */
    static SQSEvent sqs(String queueArn, List<Message> messages) {
        SQSEvent event = new SQSEvent();
        event.setRecords(messages.stream().map(m -> {
            SQSEvent.SQSMessage record = new SQSEvent.SQSMessage();
            record.setMessageId(m.messageId());
            record.setReceiptHandle(m.receiptHandle());
            record.setBody(m.body());
            record.setMd5OfBody(m.md5OfBody());
            record.setAttributes(attributes(m.attributes()));
            record.setMessageAttributes(Map.of());
            record.setEventSource("aws:sqs");
            record.setEventSourceArn(queueArn);
            record.setAwsRegion(REGION);
            return record;
        }).toList());
        return event;
    }

    private static Map<String, String> attributes(Map<MessageSystemAttributeName, String> attributes) {
        return attributes.entrySet().stream()
                .collect(java.util.stream.Collectors.toMap(e -> e.getKey().toString(), Map.Entry::getValue));
    }

    /** One ObjectCreated:Put record; S3 URL-encodes the key in notifications, so this does too. */
    static S3Event objectCreated(String bucket, String key, long size, Instant at) {
        var object = new S3EventNotification.S3ObjectEntity(
                URLEncoder.encode(key, StandardCharsets.UTF_8).replace("%2F", "/"), size, null, null, null);
        var bucketEntity = new S3EventNotification.S3BucketEntity(bucket,
                new S3EventNotification.UserIdentityEntity("local"), "arn:aws:s3:::" + bucket);
        var s3 = new S3EventNotification.S3Entity("local-notification", bucketEntity, object, "1.0");
        var record = new S3EventNotification.S3EventNotificationRecord(REGION, "ObjectCreated:Put", "aws:s3",
                at.toString(), "2.1", null, null, s3, null);
        return new S3Event(List.of(record));
    }

    /** An HTTP API (payload 2.0) request event. */
    static APIGatewayV2HTTPEvent http(String method, String path, String rawQuery, Map<String, String> query,
            Map<String, String> headers, String body, boolean base64) {
        return APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withRouteKey("$default")
                .withRawPath(path)
                .withRawQueryString(rawQuery == null ? "" : rawQuery)
                .withQueryStringParameters(query.isEmpty() ? null : query)
                .withHeaders(headers)
                .withBody(body)
                .withIsBase64Encoded(base64)
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                                .withMethod(method).withPath(path).withProtocol("HTTP/1.1")
                                .withSourceIp("127.0.0.1").build())
                        .build())
                .build();
    }
}
