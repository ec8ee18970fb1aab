package io.spiderling.infra;

import io.spiderling.catalog.Route;
import io.spiderling.catalog.Routes;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.aws_apigatewayv2_authorizers.HttpIamAuthorizer;
import software.amazon.awscdk.aws_apigatewayv2_authorizers.HttpJwtAuthorizer;
import software.amazon.awscdk.aws_apigatewayv2_integrations.HttpLambdaIntegration;
import software.amazon.awscdk.services.apigateway.AccessLogFormat;
import software.amazon.awscdk.services.apigatewayv2.AddRoutesOptions;
import software.amazon.awscdk.services.apigatewayv2.HttpApi;
import software.amazon.awscdk.services.apigatewayv2.HttpMethod;
import software.amazon.awscdk.services.apigatewayv2.HttpStage;
import software.amazon.awscdk.services.apigatewayv2.IAccessLogDestination;
import software.amazon.awscdk.services.apigatewayv2.IAccessLogSettings;
import software.amazon.awscdk.services.apigatewayv2.IHttpRouteAuthorizer;
import software.amazon.awscdk.services.apigatewayv2.LogGroupLogDestination;
import software.amazon.awscdk.services.apigatewayv2.PayloadFormatVersion;
import software.amazon.awscdk.services.apigatewayv2.HttpNoneAuthorizer;
import software.amazon.awscdk.services.apigatewayv2.ThrottleSettings;
import software.amazon.awscdk.services.logs.LogGroup;
import software.constructs.Construct;

/**
 * The HTTP API: one route per entry of {@link Routes#ALL}, each a Lambda proxy integration (payload 2.0) of the
 * function the route names, all behind one authorizer but the public key directory of Web Bot Auth (ADR 21). The default stage
 * throttles and writes JSON access logs.
 */
public final class HttpApiConstruct extends Construct {

    /**
     * Access log fields. HTTP APIs have their own {@code $context} variables (no resourcePath, but routeKey), so
     * CDK's REST-flavoured standard fields do not fit. The caller fields say who called under either authorizer.
     */
    static final Map<String, String> ACCESS_LOG_FIELDS = accessLogFields();

    private final HttpStage stage;

    public HttpApiConstruct(Construct scope, String id, HttpApiProps props) {
        super(scope, id);
        HttpApi api = HttpApi.Builder.create(this, "Api")
                .apiName(props.resourcePrefix())
                .description("Spiderling: submit batches, read their progress and the fetched URLs")
                // The default stage is declared below, where it can throttle and log.
                .createDefaultStage(false)
                .build();
        LogGroup accessLogs = LogGroup.Builder.create(this, "AccessLogs")
                .retention(LogRetention.days(props.logRetentionDays()))
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
        stage = HttpStage.Builder.create(this, "DefaultStage")
                .httpApi(api)
                .stageName("$default")
                .autoDeploy(true)
                .throttle(ThrottleSettings.builder()
                        .rateLimit(props.throttleRateLimit())
                        .burstLimit(props.throttleBurstLimit())
                        .build())
                .accessLogSettings(new JsonAccessLogs(new LogGroupLogDestination(accessLogs)))
                .build();

        IHttpRouteAuthorizer authorizer = authorizer(props.auth());
        Map<String, HttpLambdaIntegration> integrations = new LinkedHashMap<>();
        for (Route route : Routes.ALL) {
            HttpLambdaIntegration integration = integrations.computeIfAbsent(route.function(), name ->
                    HttpLambdaIntegration.Builder.create(Names.constructId(name) + "Integration",
                                    props.functions().function(name).target())
                            .payloadFormatVersion(PayloadFormatVersion.VERSION_2_0)
                            .build());
            var added = api.addRoutes(AddRoutesOptions.builder()
                    .path(route.path())
                    .methods(List.of(HttpMethod.valueOf(route.method())))
                    .integration(integration)
                    // The key directory is read by any site checking a signature (ADR 21).
                    .authorizer(route.operation().isPublic() ? new HttpNoneAuthorizer() : authorizer)
                    .build());
            if (route.operation().isPublic()) {
                added.forEach(r -> Nag.accept(r, "AwsSolutions-APIG4", "The Web Bot Auth key directory (ADR 21)"
                        + " is fetched without credentials by any site that checks a signed request, as the"
                        + " directory draft requires; it serves only public keys, and the stage's throttling"
                        + " applies."));
            }
        }
    }

    /** The stage's URL, e.g. {@code https://abc123.execute-api.eu-west-1.amazonaws.com/}. */
    public String url() {
        return stage.getUrl();
    }

    private static IHttpRouteAuthorizer authorizer(ApiAuth auth) {
        return switch (auth) {
            case ApiAuth.Jwt jwt -> HttpJwtAuthorizer.Builder.create("JwtAuthorizer", jwt.issuer().toString())
                    .jwtAudience(jwt.audiences())
                    .build();
            // The functions take the caller's IAM identity (its role ARN) as the client id.
            case ApiAuth.Iam iam -> new HttpIamAuthorizer();
        };
    }

    private static Map<String, String> accessLogFields() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("requestId", "$context.requestId");
        fields.put("requestTime", "$context.requestTime");
        fields.put("ip", "$context.identity.sourceIp");
        fields.put("routeKey", "$context.routeKey");
        fields.put("path", "$context.path");
        fields.put("status", "$context.status");
        fields.put("protocol", "$context.protocol");
        fields.put("responseLength", "$context.responseLength");
        fields.put("responseLatency", "$context.responseLatency");
        fields.put("integrationLatency", "$context.integrationLatency");
        fields.put("integrationError", "$context.integrationErrorMessage");
        fields.put("authorizerError", "$context.authorizer.error");
        fields.put("jwtSubject", "$context.authorizer.claims.sub");
        fields.put("iamCaller", "$context.identity.userArn");
        return Collections.unmodifiableMap(fields);
    }

    /**
     * The stage's access log settings: the log group, one JSON object per request. A plain class, not a record:
     * jsii offers every public method of an implementation to JavaScript, and a record's {@code destination()}
     * accessor would clash with the interface's {@code destination} property.
     */
    private static final class JsonAccessLogs implements IAccessLogSettings {
        private final IAccessLogDestination logDestination;

        JsonAccessLogs(IAccessLogDestination logDestination) {
            this.logDestination = logDestination;
        }

        @Override
        public IAccessLogDestination getDestination() {
            return logDestination;
        }

        @Override
        public AccessLogFormat getFormat() {
            return AccessLogFormat.custom(ACCESS_LOG_FIELDS.entrySet().stream()
                    .map(field -> "\"" + field.getKey() + "\":\"" + field.getValue() + "\"")
                    .collect(Collectors.joining(",", "{", "}")));
        }
    }

    /** What the API routes to, and how it admits callers. */
    public static final class HttpApiProps {
        private final Functions functions;
        private final ApiAuth auth;
        private final String resourcePrefix;
        private final double throttleRateLimit;
        private final int throttleBurstLimit;
        private final int logRetentionDays;

        private HttpApiProps(Builder b) {
            this.functions = Objects.requireNonNull(b.functions, "functions");
            this.auth = Objects.requireNonNull(b.auth, "auth");
            this.resourcePrefix = Objects.requireNonNull(b.resourcePrefix, "resourcePrefix");
            this.throttleRateLimit = b.throttleRateLimit;
            this.throttleBurstLimit = b.throttleBurstLimit;
            this.logRetentionDays = b.logRetentionDays;
        }

        public static Builder builder() {
            return new Builder();
        }

        Functions functions() {
            return functions;
        }

        ApiAuth auth() {
            return auth;
        }

        String resourcePrefix() {
            return resourcePrefix;
        }

        /** Steady requests per second across the stage. */
        double throttleRateLimit() {
            return throttleRateLimit;
        }

        /** Requests the stage admits at once above the steady rate. */
        int throttleBurstLimit() {
            return throttleBurstLimit;
        }

        int logRetentionDays() {
            return logRetentionDays;
        }

        public static final class Builder {
            private Functions functions;
            private ApiAuth auth;
            private String resourcePrefix;
            private double throttleRateLimit;
            private int throttleBurstLimit;
            private int logRetentionDays;

            private Builder() {}

            public Builder functions(Functions functions) {
                this.functions = functions;
                return this;
            }

            public Builder auth(ApiAuth auth) {
                this.auth = auth;
                return this;
            }

            public Builder resourcePrefix(String prefix) {
                this.resourcePrefix = prefix;
                return this;
            }

            public Builder throttle(double rateLimit, int burstLimit) {
                this.throttleRateLimit = rateLimit;
                this.throttleBurstLimit = burstLimit;
                return this;
            }

            public Builder logRetentionDays(int days) {
                this.logRetentionDays = days;
                return this;
            }

            public HttpApiProps build() {
                return new HttpApiProps(this);
            }
        }
    }
}
