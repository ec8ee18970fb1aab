package io.spiderling.infra;

import io.spiderling.catalog.FunctionSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** The policy statements a synthesized template attaches to a catalog function's role. */
final class Policies {

    private Policies() {}

    /** Every statement of every policy attached to {@code function}'s role. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> statements(Synthesized deployment, FunctionSpec function) {
        String role = Synthesized.ref(deployment.properties(deployment.functionId(function.name())).get("Role"));
        List<Map<String, Object>> statements = new ArrayList<>();
        for (Map<String, Object> policy : deployment.resources("AWS::IAM::Policy").values()) {
            Map<String, Object> properties = Synthesized.properties(policy);
            List<String> roles = ((List<Object>) properties.get("Roles")).stream().map(Synthesized::ref).toList();
            if (roles.contains(role)) {
                var document = (Map<String, Object>) properties.get("PolicyDocument");
                statements.addAll((List<Map<String, Object>>) document.get("Statement"));
            }
        }
        return statements;
    }

    /** A policy field that holds one value or a list of them, as a list. */
    static List<Object> list(Object value) {
        return value == null ? List.of() : value instanceof List<?> l ? new ArrayList<>(l) : List.of(value);
    }

    /** A policy's grant, resolved: an action (IAM's, wildcards and all) on a resource, for keys under a prefix. */
    record Grant(String function, String action, String resource, List<String> prefixes) {
        /**
         * Whether it allows {@code action} on {@code resource}, both in the call recorder's terms: a listing's resource
         * is {@code bucket:<prefix>}, matched against the statement's {@code s3:prefix} condition.
         */
        boolean allows(String calledAction, String calledResource) {
            if (!glob(action).matcher(calledAction).matches()) {
                return false;
            }
            if (calledResource.startsWith("bucket:")) {
                String prefix = calledResource.substring("bucket:".length());
                return resource.equals("bucket")
                        && (prefixes.isEmpty() || prefixes.stream().anyMatch(p -> glob(p).matcher(prefix).matches()));
            }
            return glob(resource).matcher(calledResource).matches();
        }

        String shown() {
            return action + " on " + resource + (prefixes.isEmpty() ? "" : " for s3:prefix " + prefixes);
        }
    }

    /** Every (action, resource) {@code spec}'s role allows, resolved into the catalog's names. */
    static List<Grant> grants(Synthesized deployment, FunctionSpec spec) {
        GrantedResources resources = new GrantedResources(deployment);
        Set<Grant> grants = new java.util.LinkedHashSet<>();
        for (Map<String, Object> statement : Policies.statements(deployment, spec)) {
            if (!"Allow".equals(statement.get("Effect")) || statement.containsKey("NotAction")
                    || statement.containsKey("NotResource")) {
                throw new AssertionError(spec.name() + ": a statement this check cannot read: " + statement);
            }
            List<String> prefixes = prefixes(statement);
            for (Object action : Policies.list(statement.get("Action"))) {
                for (Object resource : Policies.list(statement.get("Resource"))) {
                    grants.add(new Grant(spec.name(), String.valueOf(action), resources.resolve(resource), prefixes));
                }
            }
        }
        return List.copyOf(grants);
    }

    @SuppressWarnings("unchecked")
    private static List<String> prefixes(Map<String, Object> statement) {
        Object conditions = statement.get("Condition");
        if (conditions == null) {
            return List.of();
        }
        Map<String, Object> like = (Map<String, Object>) ((Map<String, Object>) conditions).get("StringLike");
        if (like == null || ((Map<String, Object>) conditions).size() != 1) {
            throw new AssertionError("a condition this check cannot read: " + conditions);
        }
        return Policies.list(like.get("s3:prefix")).stream().map(String::valueOf).toList();
    }

    static Pattern glob(String pattern) {
        StringBuilder regex = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }
}
