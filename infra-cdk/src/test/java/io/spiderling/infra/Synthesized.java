package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.catalog.Queue;
import io.spiderling.catalog.Table;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import software.amazon.awscdk.assertions.Template;

/**
 * A synthesized deployment, with lookups of its template by the names the catalog gives resources. The template is
 * copied out of jsii once: every {@code Template} call crosses to Node and back with the whole template.
 */
final class Synthesized {

    private final SpiderlingStackProps props;
    private final SpiderlingStack stack;
    private final Template template;
    private final Map<String, Map<String, Object>> resources;
    private final Map<String, Map<String, Object>> outputs;

    /** Synthesizes {@code stack}, built from {@code props}. */
    static Synthesized of(SpiderlingStackProps props, SpiderlingStack stack) {
        return new Synthesized(props, stack, Template.fromStack(stack));
    }

    @SuppressWarnings("unchecked")
    private Synthesized(SpiderlingStackProps props, SpiderlingStack stack, Template template) {
        this.props = props;
        this.stack = stack;
        this.template = template;
        Map<String, Object> json = template.toJSON();
        this.resources = (Map<String, Map<String, Object>>) json.get("Resources");
        this.outputs = (Map<String, Map<String, Object>>) json.getOrDefault("Outputs", Map.of());
    }

    SpiderlingStackProps props() {
        return props;
    }

    SpiderlingStack stack() {
        return stack;
    }

    Template template() {
        return template;
    }

    /** Every resource of {@code type}, by logical id. */
    Map<String, Map<String, Object>> resources(String type) {
        Map<String, Map<String, Object>> ofType = new LinkedHashMap<>();
        resources.forEach((id, resource) -> {
            if (type.equals(resource.get("Type"))) {
                ofType.put(id, resource);
            }
        });
        return ofType;
    }

    Map<String, Map<String, Object>> allResources() {
        return resources;
    }

    Map<String, Map<String, Object>> outputs() {
        return outputs;
    }

    Map<String, Object> resource(String logicalId) {
        return resources.get(logicalId);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> properties(Map<String, Object> resource) {
        return (Map<String, Object>) resource.getOrDefault("Properties", Map.of());
    }

    Map<String, Object> properties(String logicalId) {
        return properties(resource(logicalId));
    }

    /** The logical id of the one resource of {@code type} whose {@code property} is {@code value}. */
    String idWhere(String type, String property, Object value) {
        List<String> ids = resources(type).entrySet().stream()
                .filter(e -> value.equals(properties(e.getValue()).get(property)))
                .map(Map.Entry::getKey)
                .toList();
        assertEquals(1, ids.size(), () -> type + " with " + property + "=" + value + ": " + ids);
        return ids.get(0);
    }

    /** The Lambda function of the catalog entry {@code name}. */
    String functionId(String name) {
        return idWhere("AWS::Lambda::Function", "FunctionName", props.resourcePrefix() + "-" + name);
    }

    /** The alias {@code live} of the catalog entry {@code name}. */
    String aliasId(String name) {
        String function = functionId(name);
        List<String> ids = resources("AWS::Lambda::Alias").entrySet().stream()
                .filter(e -> function.equals(ref(properties(e.getValue()).get("FunctionName"))))
                .map(Map.Entry::getKey)
                .toList();
        assertEquals(1, ids.size(), () -> "aliases of " + name + ": " + ids);
        return ids.get(0);
    }

    String tableId(Table table) {
        return idWhere("AWS::DynamoDB::Table", "TableName", table.nameIn(props.resourcePrefix()));
    }

    String secretId(io.spiderling.catalog.Secret secret) {
        return idWhere("AWS::SecretsManager::Secret", "Name", secret.nameIn(props.resourcePrefix()));
    }

    String queueId(Queue queue) {
        return idWhere("AWS::SQS::Queue", "QueueName", queue.nameIn(props.resourcePrefix()));
    }

    String objectEventFailuresId() {
        return idWhere("AWS::SQS::Queue", "QueueName", props.resourcePrefix() + "-"
                + EventSources.OBJECT_EVENT_FAILURES);
    }

    /** The environment variables of the catalog entry {@code name}'s function. */
    @SuppressWarnings("unchecked")
    Map<String, Object> environment(String name) {
        Map<String, Object> environment = (Map<String, Object>) properties(functionId(name)).get("Environment");
        return (Map<String, Object>) environment.get("Variables");
    }

    /**
     * The resources a CloudFormation value points at, rendered as text: {@code Ref X} and {@code Fn::GetAtt X.Arn}
     * become {@code X}, a join of those and literals their concatenation ({@code Bucket/content/*}), a literal
     * itself.
     */
    @SuppressWarnings("unchecked")
    static String ref(Object value) {
        if (value instanceof String text) {
            return text;
        }
        if (value instanceof Map<?, ?> map) {
            if (map.containsKey("Ref")) {
                return (String) map.get("Ref");
            }
            if (map.containsKey("Fn::GetAtt")) {
                return (String) ((List<Object>) map.get("Fn::GetAtt")).get(0);
            }
            if (map.containsKey("Fn::Join")) {
                List<Object> join = (List<Object>) map.get("Fn::Join");
                return ((List<Object>) join.get(1)).stream().map(Synthesized::ref)
                        .collect(Collectors.joining((String) join.get(0)));
            }
        }
        return String.valueOf(value);
    }
}
