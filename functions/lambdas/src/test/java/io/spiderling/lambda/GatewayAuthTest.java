package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.spiderling.lambda.api.ApiAuth;
import io.spiderling.lambda.api.GatewayAuth;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class GatewayAuthTest {

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/api/iam-callers.csv", numLinesToSkip = 1)
    void authenticate_whenIamAuthorizerNamedTheCaller_isTheCallersRoleOrUser(String caseName, String userArn,
            String client) {
        var event = APIGatewayV2HTTPEvent.builder().withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                .withAuthorizer(APIGatewayV2HTTPEvent.RequestContext.Authorizer.builder()
                        .withIam(APIGatewayV2HTTPEvent.RequestContext.IAM.builder().withUserArn(userArn).build())
                        .build()).build()).build();

        assertEquals(new ApiAuth.Outcome.Client(client), new GatewayAuth("sub").authenticate(event), caseName);
    }
}
