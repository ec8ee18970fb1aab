package io.spiderling.core.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The API's clients for a deployment without an identity provider (local runs, small installations): who may call
 * the API, by bearer token, and the secret each client's webhooks are signed with.
 *
 * <p>The text format is one client per line, three fields separated by white space, then optionally the flag
 * {@code admin}:
 * <pre>
 *   # client-id   token                              webhook-secret               [admin]
 *   acme          tok-acme-2f9d8c7b6a5e4d3c           whsec-acme-0a1b2c3d4e5f6789
 *   ops           tok-ops-5e4d3c2b1a0f9e8d            whsec-ops-1122334455667788   admin
 * </pre>
 * <ul>
 *   <li>An {@code admin} client may also call the operator routes ({@code /admin/...}: the kill switch, opt-outs,
 *       quotas; ADR 10). Lines without the flag, as every file before it, are ordinary clients.
 *   <li>A line whose first non-blank character is {@code #} is a comment; blank lines are ignored. Unlike the rate
 *       overrides file, {@code #} later in a line is not a comment: it may be part of a secret, and cutting a secret
 *       short would fail every signature check with no hint why.
 *   <li>A client id is 1 to 64 of {@code A-Z a-z 0-9 . _ -}.
 *   <li>A token is at least {@link #MIN_LENGTH} characters of the RFC 6750 bearer-token alphabet ({@code A-Z a-z
 *       0-9 - . _ ~ + /}, then optionally {@code =} padding), so that every token in the file can be sent in an
 *       {@code Authorization} header as it is.
 *   <li>A webhook secret is at least {@link #MIN_LENGTH} visible ASCII characters: receivers paste it into their
 *       own configuration, and non-ASCII text can change bytes (normalization, encoding) on the way, which would
 *       break every signature.
 *   <li>Client ids are unique, tokens are unique, and a client's token is not its webhook secret (the secret is
 *       shared with the receiver, who must not thereby be able to call the API as the client).
 * </ul>
 * A file that breaks a rule is refused whole, naming the line. Error messages never contain a field of the line,
 * since a misplaced token or secret could be any of them.
 *
 * <p>Tokens are kept only as SHA-256 digests, and {@link #authenticate} compares the digest of the presented token
 * with every client's in constant time, so the time taken says neither how much of a token was right nor which client
 * matched. {@link #toString()} shows client ids only. Instances are immutable and thread-safe.
 */
public final class Clients {

    /**
     * The shortest token or webhook secret accepted: a floor against typos and placeholders such as {@code changeme},
     * not a recommendation. Generate them from a secure random source, e.g. {@code openssl rand -base64 32}.
     */
    public static final int MIN_LENGTH = 16;

    private static final Pattern CLIENT_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    /**
     * An IAM role or user ARN, as API Gateway's IAM authorizer names callers (a role, not its sessions: see
     * {@code GatewayAuth}), so that their callbacks can be signed too.
     */
    private static final Pattern IAM_ARN =
            Pattern.compile("arn:aws[a-z-]*:iam::[0-9]{12}:(role|user)/[A-Za-z0-9+=,.@_/-]{1,512}");
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._~+/-]+=*");
    private static final Pattern SECRET = Pattern.compile("[\\x21-\\x7e]+");
    private static final Pattern AUTHORIZATION = Pattern.compile("(\\S+)(?: +(\\S+))?");
    private static final String BEARER = "Bearer";
    private static final String ADMIN = "admin";

    /** One line of the file. A class rather than a record, so that no generated toString can print the secret. */
    private static final class Client {
        final String id;
        final byte[] tokenDigest;
        final String webhookSecret;
        final boolean admin;

        Client(String id, byte[] tokenDigest, String webhookSecret, boolean admin) {
            this.id = id;
            this.tokenDigest = tokenDigest;
            this.webhookSecret = webhookSecret;
            this.admin = admin;
        }
    }

    /** What {@link #authenticate} found. */
    public sealed interface Authentication {

        /** The token belongs to {@code clientId}. */
        record Authenticated(String clientId) implements Authentication {

            public Authenticated {
                Objects.requireNonNull(clientId, "clientId");
            }
        }

        /** No credentials were presented: answer 401 with {@code WWW-Authenticate: Bearer}. */
        record Missing() implements Authentication {}

        /**
         * Credentials were presented and are not a known client's: answer 401.
         *
         * @param reason for a log; never contains the presented token
         */
        record Invalid(String reason) implements Authentication {

            public Invalid {
                Objects.requireNonNull(reason, "reason");
            }
        }
    }

    private static final Clients NONE = new Clients(List.of());

    private final List<Client> clients;
    private final Map<String, Client> byId;

    private Clients(List<Client> clients) {
        this.clients = List.copyOf(clients);
        Map<String, Client> map = new TreeMap<>();
        clients.forEach(client -> map.put(client.id, client));
        this.byId = Collections.unmodifiableMap(map);
    }

    /** No clients: every request is refused. */
    public static Clients none() {
        return NONE;
    }

    /**
     * Reads the format described above.
     *
     * @throws IllegalArgumentException naming the first line (1-based) that breaks a rule, and which rule, but no
     *     field of it
     */
    public static Clients parse(String text) {
        Objects.requireNonNull(text, "text");
        List<Client> clients = new ArrayList<>();
        Map<String, Integer> lineOfId = new HashMap<>();
        Map<String, Integer> lineOfToken = new HashMap<>(); // keyed by the digest in hex, never by the token
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            int number = i + 1;
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] fields = line.split("\\s+");
            if (fields.length == 4 && !fields[3].equals(ADMIN)) {
                throw error(number, "the fourth field may only be the flag '" + ADMIN + "'");
            }
            if (fields.length != 3 && fields.length != 4) {
                throw error(number, "expected '<client-id> <token> <webhook-secret> [admin]', found " + fields.length
                        + (fields.length == 1 ? " field" : " fields"));
            }
            String id = fields[0];
            String token = fields[1];
            String secret = fields[2];
            if (!CLIENT_ID.matcher(id).matches() && !IAM_ARN.matcher(id).matches()) {
                throw error(number, "client id must be 1 to 64 letters, digits, '.', '_' or '-', or an IAM role or"
                        + " user ARN");
            }
            if (token.length() < MIN_LENGTH) {
                throw error(number, "token must be at least " + MIN_LENGTH + " characters");
            }
            if (!TOKEN.matcher(token).matches()) {
                throw error(number, "token may only contain letters, digits and -._~+/, then '=' padding");
            }
            if (secret.length() < MIN_LENGTH) {
                throw error(number, "webhook secret must be at least " + MIN_LENGTH + " characters");
            }
            if (!SECRET.matcher(secret).matches()) {
                throw error(number, "webhook secret must be visible ASCII characters");
            }
            if (token.equals(secret)) {
                throw error(number, "token and webhook secret must differ");
            }
            byte[] digest = sha256(token);
            String digestKey = HexFormat.of().formatHex(digest);
            Integer earlierId = lineOfId.putIfAbsent(id, number);
            if (earlierId != null) {
                throw error(number, "client id already defined on line " + earlierId);
            }
            Integer earlierToken = lineOfToken.putIfAbsent(digestKey, number);
            if (earlierToken != null) {
                throw error(number, "token already used on line " + earlierToken);
            }
            clients.add(new Client(id, digest, secret, fields.length == 4));
        }
        return clients.isEmpty() ? NONE : new Clients(clients);
    }

    /**
     * Who is calling, from the request's {@code Authorization} header: {@code Bearer <token>}, the scheme name in any
     * case.
     *
     * @return {@link Authentication.Missing} when there is no header or it is blank; {@link Authentication.Invalid}
     *     for another scheme, a malformed header or an unknown token
     */
    public Authentication authenticate(Optional<String> authorizationHeader) {
        Objects.requireNonNull(authorizationHeader, "authorizationHeader");
        if (authorizationHeader.isEmpty() || authorizationHeader.get().isBlank()) {
            return new Authentication.Missing();
        }
        Matcher matcher = AUTHORIZATION.matcher(authorizationHeader.get().strip());
        if (!matcher.matches()) {
            return new Authentication.Invalid("malformed Authorization header");
        }
        if (!matcher.group(1).equalsIgnoreCase(BEARER)) {
            return new Authentication.Invalid("not a Bearer token");
        }
        if (matcher.group(2) == null) {
            return new Authentication.Invalid("Bearer without a token");
        }
        byte[] presented = sha256(matcher.group(2));
        Client found = null;
        for (Client client : clients) {
            // no early exit: every digest is compared, whichever matches
            if (MessageDigest.isEqual(presented, client.tokenDigest)) {
                found = client;
            }
        }
        return found == null ? new Authentication.Invalid("unknown token")
                : new Authentication.Authenticated(found.id);
    }

    /** The secret that {@code clientId}'s webhook deliveries are signed with. */
    public Optional<String> webhookSecret(String clientId) {
        Client client = byId.get(clientId);
        return client == null ? Optional.empty() : Optional.of(client.webhookSecret);
    }

    /** Whether {@code clientId} is flagged {@code admin}: an operator, who may call the {@code /admin} routes. */
    public boolean admin(String clientId) {
        Client client = byId.get(clientId);
        return client != null && client.admin;
    }

    /** The client ids, in order. */
    public Set<String> clientIds() {
        return byId.keySet();
    }

    /** Client ids only: never a token, a digest or a secret. */
    @Override
    public String toString() {
        return "Clients" + byId.keySet();
    }

    private static IllegalArgumentException error(int line, String message) {
        return new IllegalArgumentException("clients, line " + line + ": " + message);
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must support SHA-256", e);
        }
    }
}
