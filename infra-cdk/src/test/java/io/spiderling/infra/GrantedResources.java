package io.spiderling.infra;

import io.spiderling.catalog.Queue;
import io.spiderling.catalog.Secret;
import io.spiderling.catalog.Table;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A policy statement's resources in the catalog's names, as the call recorder writes them: {@code Fn::GetAtt},
 * {@code Ref} and {@code Fn::Join} are resolved to the resources they point at, and those to the catalog's table,
 * queue, secret or bucket prefix by their names in the template ({@code table:SITES/index/byOrder},
 * {@code object:content/*}, {@code queue:FETCH}, {@code secret:CLIENTS}, {@code bucket}). A resource outside the
 * catalog (a log group, the S3 event failures queue) is {@code other:<logical id>}.
 */
final class GrantedResources {

    private final Synthesized deployment;

    GrantedResources(Synthesized deployment) {
        this.deployment = deployment;
    }

    /** The resource {@code value} names, in the catalog's terms. */
    String resolve(Object value) {
        String joined = text(value);
        if (joined.startsWith("bucket/")) {
            return "object:" + joined.substring("bucket/".length());
        }
        return joined;
    }

    @SuppressWarnings("unchecked")
    private String text(Object value) {
        if (value instanceof String literal) {
            return literal;
        }
        if (value instanceof Map<?, ?> map) {
            if (map.containsKey("Ref")) {
                return named((String) map.get("Ref"));
            }
            if (map.containsKey("Fn::GetAtt")) {
                List<Object> getAtt = (List<Object>) map.get("Fn::GetAtt");
                return "Arn".equals(getAtt.get(1)) ? named((String) getAtt.get(0))
                        : "other:" + getAtt.get(0) + "." + getAtt.get(1);
            }
            if (map.containsKey("Fn::Join")) {
                List<Object> join = (List<Object>) map.get("Fn::Join");
                return ((List<Object>) join.get(1)).stream().map(this::text)
                        .collect(Collectors.joining((String) join.get(0)));
            }
        }
        return "other:" + value;
    }

    /** The catalog's name of the template's resource {@code logicalId}, from its name property. */
    private String named(String logicalId) {
        Map<String, Object> resource = deployment.resource(logicalId);
        if (resource == null) {
            return "other:" + logicalId;
        }
        Map<String, Object> properties = Synthesized.properties(resource);
        String prefix = deployment.props().resourcePrefix();
        return switch (String.valueOf(resource.get("Type"))) {
            case "AWS::DynamoDB::Table" -> Table.all().stream()
                    .filter(t -> t.nameIn(prefix).equals(properties.get("TableName")))
                    .map(t -> "table:" + t.name()).findFirst().orElse("other:" + logicalId);
            case "AWS::SQS::Queue" -> Queue.all().stream()
                    .filter(q -> q.nameIn(prefix).equals(properties.get("QueueName")))
                    .map(q -> "queue:" + q.name()).findFirst().orElse("other:" + logicalId);
            case "AWS::SecretsManager::Secret" -> Secret.all().stream()
                    .filter(s -> s.nameIn(prefix).equals(properties.get("Name")))
                    .map(s -> "secret:" + s.name()).findFirst().orElse("other:" + logicalId);
            case "AWS::S3::Bucket" -> logicalId.equals(StorageTest.bucketId(deployment)) ? "bucket"
                    : "other:" + logicalId;
            default -> "other:" + logicalId;
        };
    }
}
