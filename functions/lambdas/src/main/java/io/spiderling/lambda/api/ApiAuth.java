package io.spiderling.lambda.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.spiderling.lambda.internal.HttpJson;
import java.util.Map;

/**
 * Who is calling the HTTP API. Every route asks first; a request without credentials, or with wrong ones, gets 401
 * and learns nothing else (not whether the batch or URL it asked about exists). See ADR 10.
 */
public interface ApiAuth {

    sealed interface Outcome {
        record Client(String id) implements Outcome {}

        /** @param reason said to the caller; names what was wrong with the credentials, never whose they were */
        record Refused(String reason) implements Outcome {}
    }

    Outcome authenticate(APIGatewayV2HTTPEvent event);

    /** The 401 for a refusal, with the challenge RFC 6750 asks for. */
    static APIGatewayV2HTTPResponse unauthorized(Outcome.Refused refused) {
        return APIGatewayV2HTTPResponse.builder()
                .withStatusCode(401)
                .withHeaders(Map.of("content-type", "application/json", "www-authenticate",
                        "Bearer realm=\"spiderling\""))
                .withBody(HttpJson.JSON.createObjectNode().put("error", refused.reason()).toString())
                .build();
    }
}
