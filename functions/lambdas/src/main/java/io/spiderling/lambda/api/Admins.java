package io.spiderling.lambda.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.spiderling.core.auth.Clients;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Who among the API's clients is an admin, who may call the operator routes ({@code /admin/...}; ADR 10):
 * <ul>
 *   <li>a client flagged {@code admin} in the clients file, in either mode (the file locally, the clients secret on
 *       AWS);</li>
 *   <li>in gateway mode also a caller whose JWT claim {@code spiderling.auth.groups-claim} ({@code cognito:groups})
 *       or Lambda authorizer context value {@code groups} names one of {@code spiderling.auth.admin-groups};</li>
 *   <li>in gateway mode also an IAM caller whose role (as ADR 10 resolves a session to its role,
 *       {@code arn:aws:iam::<account>:role/<name>}) is one of {@code spiderling.auth.admin-roles}.</li>
 * </ul>
 * Nothing else makes an admin; in particular no request header does.
 */
public final class Admins {

    private final Supplier<Clients> clients;
    private final Optional<String> groupsClaim;
    private final Set<String> groups;
    private final Set<String> roles;

    private Admins(Supplier<Clients> clients, Optional<String> groupsClaim, List<String> groups, List<String> roles) {
        this.clients = clients;
        this.groupsClaim = groupsClaim;
        this.groups = Set.copyOf(groups);
        this.roles = Set.copyOf(roles);
    }

    /** Token-file mode: the clients file's flag alone. */
    public static Admins tokenFile(Supplier<Clients> clients) {
        return new Admins(clients, Optional.empty(), List.of(), List.of());
    }

    /** Gateway mode: the clients secret's flag, the admin groups in the groups claim, and the admin roles. */
    public static Admins gateway(Supplier<Clients> clients, String groupsClaim, List<String> adminGroups,
            List<String> adminRoles) {
        return new Admins(clients, Optional.of(groupsClaim), adminGroups, adminRoles);
    }

    /** Whether {@code client}, authenticated from {@code event}, is an admin. */
    public boolean admin(String client, APIGatewayV2HTTPEvent event) {
        if (roles.contains(client)) {
            return true;
        }
        if (!groups.isEmpty() && callerGroups(event).stream().anyMatch(groups::contains)) {
            return true;
        }
        return clients.get().admin(client);
    }

    /**
     * The caller's groups: the JWT claim, which API Gateway passes as text ({@code "[admins ops]"} for a list, or a
     * single name), or a Lambda authorizer's {@code groups} context value, names separated by spaces or commas.
     */
    Set<String> callerGroups(APIGatewayV2HTTPEvent event) {
        var context = event.getRequestContext();
        var authorizer = context == null ? null : context.getAuthorizer();
        if (authorizer == null || groupsClaim.isEmpty()) {
            return Set.of();
        }
        Optional<String> text = Optional.ofNullable(authorizer.getJwt()).map(jwt -> jwt.getClaims())
                .map(claims -> claims.get(groupsClaim.get()))
                .or(() -> Optional.ofNullable(authorizer.getLambda()).map(l -> l.get("groups")).map(Object::toString));
        return text.map(t -> Arrays.stream(t.replaceAll("[\\[\\]\"]", " ").split("[\\s,]+"))
                .filter(g -> !g.isEmpty()).collect(Collectors.toUnmodifiableSet())).orElse(Set.of());
    }
}
