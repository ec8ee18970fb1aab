package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.Route;
import io.spiderling.catalog.Routes;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class HttpApiTest {

    @Test
    void routes_whenDeployed_areExactlyTheRouteTableEachToItsFunctionsAlias() {
        Synthesized jvm = Synth.jvmIam();
        var routes = jvm.resources("AWS::ApiGatewayV2::Route");
        assertEquals(Routes.ALL.stream().map(Route::routeKey).collect(Collectors.toSet()),
                routes.values().stream().map(r -> Synthesized.properties(r).get("RouteKey")).collect(Collectors.toSet()));
        assertEquals(Routes.ALL.size(), routes.size());
        for (Route route : Routes.ALL) {
            Map<String, Object> properties = routes.values().stream().map(Synthesized::properties)
                    .filter(p -> route.routeKey().equals(p.get("RouteKey"))).findFirst().orElseThrow();
            // "integrations/<id>"
            String integration = Synthesized.ref(properties.get("Target")).substring("integrations/".length());
            Map<String, Object> integrationProperties = jvm.properties(integration);
            assertEquals("AWS_PROXY", integrationProperties.get("IntegrationType"), route.routeKey());
            assertEquals("2.0", integrationProperties.get("PayloadFormatVersion"), route.routeKey());
            assertEquals(jvm.aliasId(route.function()), Synthesized.ref(integrationProperties.get("IntegrationUri")),
                    route.routeKey());
        }
    }

    @Test
    void routes_whenIamChosen_everyRouteButTheKeyDirectoryNeedsSigV4() {
        Synthesized jvm = Synth.jvmIam();
        for (Map<String, Object> route : jvm.resources("AWS::ApiGatewayV2::Route").values()) {
            Map<String, Object> properties = Synthesized.properties(route);
            assertEquals(isPublic(properties) ? "NONE" : "AWS_IAM", properties.get("AuthorizationType"),
                    String.valueOf(properties.get("RouteKey")));
        }
        assertEquals(0, jvm.resources("AWS::ApiGatewayV2::Authorizer").size());
    }

    @Test
    void routes_whenDeployed_onlyTheKeyDirectoryIsPublic() {
        for (Synthesized deployment : List.of(Synth.jvmIam(), Synth.jvmJwt())) {
            List<Object> open = deployment.resources("AWS::ApiGatewayV2::Route").values().stream()
                    .map(Synthesized::properties).filter(p -> "NONE".equals(p.get("AuthorizationType")))
                    .map(p -> p.get("RouteKey")).toList();
            assertEquals(List.of("GET /.well-known/http-message-signatures-directory"), open);
        }
    }

    private static boolean isPublic(Map<String, Object> route) {
        return Routes.ALL.stream().filter(r -> r.routeKey().equals(route.get("RouteKey"))).findFirst().orElseThrow()
                .operation().isPublic();
    }

    @Test
    void routes_whenJwtChosen_everyRouteButTheKeyDirectoryUsesTheOneJwtAuthorizer() {
        Synthesized jwt = Synth.jvmJwt();
        var authorizers = jwt.resources("AWS::ApiGatewayV2::Authorizer");
        assertEquals(1, authorizers.size());
        String authorizer = authorizers.keySet().iterator().next();
        Map<String, Object> properties = jwt.properties(authorizer);
        assertEquals("JWT", properties.get("AuthorizerType"));
        assertEquals(Map.of("Issuer", Synth.JWT_ISSUER.toString(), "Audience", Synth.JWT_AUDIENCES),
                properties.get("JwtConfiguration"));
        assertEquals(List.of("$request.header.Authorization"), properties.get("IdentitySource"));
        for (Map<String, Object> route : jwt.resources("AWS::ApiGatewayV2::Route").values()) {
            if (isPublic(Synthesized.properties(route))) {
                assertEquals("NONE", Synthesized.properties(route).get("AuthorizationType"));
                assertFalse(Synthesized.properties(route).containsKey("AuthorizerId"));
                continue;
            }
            assertEquals("JWT", Synthesized.properties(route).get("AuthorizationType"));
            assertEquals(authorizer, Synthesized.ref(Synthesized.properties(route).get("AuthorizerId")));
        }
    }

    @Test
    void stage_whenDeployed_throttlesAndWritesJsonAccessLogs() {
        for (Synthesized deployment : List.of(Synth.jvmIam(), Synth.jvmJwt())) {
            var stages = deployment.resources("AWS::ApiGatewayV2::Stage");
            assertEquals(1, stages.size());
            Map<String, Object> stage = Synthesized.properties(stages.values().iterator().next());
            assertEquals("$default", stage.get("StageName"));
            assertEquals(true, stage.get("AutoDeploy"));
            @SuppressWarnings("unchecked")
            var throttle = (Map<String, Object>) stage.get("DefaultRouteSettings");
            assertEquals(deployment.props().throttleRateLimit(),
                    ((Number) throttle.get("ThrottlingRateLimit")).doubleValue());
            assertEquals(deployment.props().throttleBurstLimit(),
                    ((Number) throttle.get("ThrottlingBurstLimit")).intValue());
            @SuppressWarnings("unchecked")
            var logs = (Map<String, Object>) stage.get("AccessLogSettings");
            String logGroup = Synthesized.ref(logs.get("DestinationArn"));
            assertEquals("AWS::Logs::LogGroup", deployment.resource(logGroup).get("Type"));
            assertEquals(deployment.props().logRetentionDays(),
                    ((Number) deployment.properties(logGroup).get("RetentionInDays")).intValue());
            String format = (String) logs.get("Format");
            assertTrue(format.startsWith("{") && format.endsWith("}"), format);
            Set<String> fields = new HashSet<>();
            for (String field : format.substring(1, format.length() - 1).split(",")) {
                String[] pair = field.split(":", 2);
                assertTrue(pair[0].matches("\"[A-Za-z]+\"") && pair[1].matches("\"\\$context\\.[A-Za-z.]+\""), field);
                fields.add(pair[1]);
            }
            assertTrue(fields.containsAll(Set.of("\"$context.requestId\"", "\"$context.routeKey\"",
                    "\"$context.status\"")), format);
        }
        assertEquals(Synth.THROTTLE_RATE, Synth.jvmJwt().props().throttleRateLimit());
    }
}
