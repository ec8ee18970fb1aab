package io.spiderling.core.signing;

import java.time.Instant;
import java.util.Optional;

/** Published test keys: their private halves are in the RFCs, so they sign nothing real. */
final class Rfc9421Keys {

    private Rfc9421Keys() {}

    /** RFC 9421 appendix B.1.4, test-key-ed25519, as a JWK (also in web-bot-auth's README). */
    static final String ED25519_D = "n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU";
    static final String ED25519_X = "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs";

    /** RFC 8037 appendix A.1 and A.3: the Ed25519 key and its thumbprint. */
    static final String RFC8037_D = "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A";
    static final String RFC8037_X = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
    static final String RFC8037_THUMBPRINT = "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k";

    static SigningKey rfc9421(Optional<Instant> nbf, Optional<Instant> exp) {
        return SigningKey.of(ED25519_D, ED25519_X, nbf, exp);
    }

    static SigningKey rfc8037(Optional<Instant> nbf, Optional<Instant> exp) {
        return SigningKey.of(RFC8037_D, RFC8037_X, nbf, exp);
    }
}
