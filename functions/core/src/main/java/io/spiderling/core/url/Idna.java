package io.spiderling.core.url;

import com.ibm.icu.text.IDNA;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The WHATWG URL Standard's "domain to ASCII" with beStrict false: UTS 46 ToASCII, nontransitional, as browsers
 * apply it ({@code faß.de} is {@code xn--fa-hia.de}, where IDNA 2003 and {@code java.net.IDN} give {@code fass.de},
 * another site).
 *
 * <p>The standard asks for UseSTD3ASCIIRules=false, CheckHyphens=false, CheckBidi=true, CheckJoiners=true,
 * Transitional_Processing=false and VerifyDnsLength=false. ICU has switches for all but CheckHyphens and
 * VerifyDnsLength, which it always checks, so the errors those two would suppress are ignored here: hyphens in the
 * wrong places, empty labels, and labels or names too long for DNS.
 */
final class Idna {

    private static final IDNA UTS46 = IDNA.getUTS46Instance(
            IDNA.NONTRANSITIONAL_TO_ASCII | IDNA.CHECK_BIDI | IDNA.CHECK_CONTEXTJ);

    private static final Set<IDNA.Error> IGNORED = EnumSet.of(
            IDNA.Error.LEADING_HYPHEN, IDNA.Error.TRAILING_HYPHEN, IDNA.Error.HYPHEN_3_4, // CheckHyphens=false
            IDNA.Error.EMPTY_LABEL, IDNA.Error.LABEL_TOO_LONG, IDNA.Error.DOMAIN_NAME_TOO_LONG); // VerifyDnsLength

    private Idna() {}

    /** The ASCII form of {@code domain}, or null if UTS 46 refuses it. */
    static String toAscii(String domain) {
        if (isPlainAscii(domain)) {
            // the standard's own shortcut: for such a name ToASCII does nothing but lower-case it
            return domain.toLowerCase(Locale.ROOT);
        }
        StringBuilder ascii = new StringBuilder(domain.length() + 16);
        IDNA.Info info = new IDNA.Info();
        UTS46.nameToASCII(domain, ascii, info);
        for (IDNA.Error error : info.getErrors()) {
            if (!IGNORED.contains(error)) {
                return null;
            }
        }
        return ascii.toString();
    }

    /** ASCII without a label that starts with {@code xn--}, which would need decoding and validating. */
    private static boolean isPlainAscii(String domain) {
        boolean labelStart = true;
        for (int i = 0; i < domain.length(); i++) {
            char c = domain.charAt(i);
            if (c >= 0x80) {
                return false;
            }
            if (labelStart && (c == 'x' || c == 'X') && domain.regionMatches(true, i, "xn--", 0, 4)) {
                return false;
            }
            labelStart = c == '.';
        }
        return true;
    }
}
