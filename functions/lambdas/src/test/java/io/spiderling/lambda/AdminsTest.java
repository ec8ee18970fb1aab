package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.spiderling.core.auth.Clients;
import io.spiderling.lambda.api.Admins;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Who is an admin in each mode (ADR 10). */
class AdminsTest {

    private static final Clients CLIENTS = Clients.parse("""
            acme tok-acme-2f9d8c7b6a5e4d3c whsec-acme-0a1b2c3d4e5f6789
            ops tok-ops-5e4d3c2b1a0f9e8d whsec-ops-1122334455667788 admin
            """);
    private static final String ROLE = "arn:aws:iam::123456789012:role/spiderling-operator";

    private final Admins gateway = Admins.gateway(() -> CLIENTS, "cognito:groups", List.of("operators"),
            List.of(ROLE));

    @Test
    void admin_whenTokenFile_isTheClientsFlagAlone() {
        Admins tokenFile = Admins.tokenFile(() -> CLIENTS);

        assertTrue(tokenFile.admin("ops", new APIGatewayV2HTTPEvent()));
        assertFalse(tokenFile.admin("acme", jwt("acme", "[operators]")), "no claim counts in token-file mode");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "acme|[operators]|true",
            "acme|[readers operators]|true",
            "acme|operators|true",
            "acme|[\"readers\",\"operators\"]|true",
            "acme|[readers]|false",
            "acme|[operators-old]|false",
            "ops|[readers]|true"})
    void admin_whenGatewayJwt_isTheGroupsClaimOrTheClientsSecretsFlag(String sub, String groups, boolean admin) {
        assertEquals(admin, gateway.admin(sub, jwt(sub, groups)));
    }

    @Test
    void admin_whenGatewayIam_isTheRoleListed() {
        assertTrue(gateway.admin(ROLE, iam()));
        assertFalse(gateway.admin("arn:aws:iam::123456789012:role/other", iam()));
    }

    @Test
    void admin_whenGatewayLambdaAuthorizer_isItsGroupsContextValue() {
        var authorizer = new APIGatewayV2HTTPEvent.RequestContext.Authorizer();
        authorizer.setLambda(Map.of("clientId", "acme", "groups", "readers,operators"));
        var context = new APIGatewayV2HTTPEvent.RequestContext();
        context.setAuthorizer(authorizer);
        var event = new APIGatewayV2HTTPEvent();
        event.setRequestContext(context);

        assertTrue(gateway.admin("acme", event));
    }

    private static APIGatewayV2HTTPEvent jwt(String sub, String groups) {
        var jwt = new APIGatewayV2HTTPEvent.RequestContext.Authorizer.JWT();
        jwt.setClaims(Map.of("sub", sub, "cognito:groups", groups));
        var authorizer = new APIGatewayV2HTTPEvent.RequestContext.Authorizer();
        authorizer.setJwt(jwt);
        var context = new APIGatewayV2HTTPEvent.RequestContext();
        context.setAuthorizer(authorizer);
        var event = new APIGatewayV2HTTPEvent();
        event.setRequestContext(context);
        return event;
    }

    private static APIGatewayV2HTTPEvent iam() {
        var iam = new APIGatewayV2HTTPEvent.RequestContext.IAM();
        iam.setUserArn("arn:aws:sts::123456789012:assumed-role/spiderling-operator/session-1");
        var authorizer = new APIGatewayV2HTTPEvent.RequestContext.Authorizer();
        authorizer.setIam(iam);
        var context = new APIGatewayV2HTTPEvent.RequestContext();
        context.setAuthorizer(authorizer);
        var event = new APIGatewayV2HTTPEvent();
        event.setRequestContext(context);
        return event;
    }
}
