package io.spiderling.core.extract;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The label table of the WHATWG Encoding standard (https://encoding.spec.whatwg.org/#names-and-labels): what a page
 * or a server may write as a charset, and which encoding it means.
 *
 * <p>A Java charset of the same name is not always the same encoding, so each WHATWG encoding is paired with the Java
 * charset whose decoder matches the standard's: the standard's GBK decoder is its gb18030 decoder, its Big5 includes
 * HKSCS, its Shift_JIS and EUC-KR are Microsoft's extended code pages (windows-31j, windows-949). The standard's name
 * is what callers see, because it does not depend on the JDK.
 *
 * <p>Encodings this JDK cannot decode (ISO-8859-10 and ISO-8859-14 in the JDK's charsets; anything missing from a
 * native image built without all charsets) are left out, so their labels count as unknown and sniffing goes on to
 * the next rule, which is better than failing the page. The "replacement" encoding (labels such as
 * {@code iso-2022-kr}) exists so that a browser shows nothing of a page it must not decode; a metadata extractor gains
 * nothing from that, so those labels are unknown too. {@code x-user-defined} is read as windows-1252: the two agree on
 * ASCII, and its upper half maps to private-use characters that no metadata needs.
 */
final class EncodingLabels {

    /** A WHATWG encoding and the charset that decodes it here. */
    record Encoding(String name, Charset charset) {}

    static final Encoding UTF_8 = new Encoding("UTF-8", StandardCharsets.UTF_8);
    static final Encoding UTF_16BE = new Encoding("UTF-16BE", StandardCharsets.UTF_16BE);
    static final Encoding UTF_16LE = new Encoding("UTF-16LE", StandardCharsets.UTF_16LE);
    static final Encoding WINDOWS_1252 = new Encoding("windows-1252", Charset.forName("windows-1252"));

    private static final Map<String, Encoding> BY_LABEL = new HashMap<>();

    static {
        add(UTF_8, "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8");
        add("IBM866", "IBM866", "866", "cp866", "csibm866", "ibm866");
        add("ISO-8859-2", "ISO-8859-2", "csisolatin2", "iso-8859-2", "iso-ir-101", "iso8859-2", "iso88592",
                "iso_8859-2", "iso_8859-2:1987", "l2", "latin2");
        add("ISO-8859-3", "ISO-8859-3", "csisolatin3", "iso-8859-3", "iso-ir-109", "iso8859-3", "iso88593",
                "iso_8859-3", "iso_8859-3:1988", "l3", "latin3");
        add("ISO-8859-4", "ISO-8859-4", "csisolatin4", "iso-8859-4", "iso-ir-110", "iso8859-4", "iso88594",
                "iso_8859-4", "iso_8859-4:1988", "l4", "latin4");
        add("ISO-8859-5", "ISO-8859-5", "csisolatincyrillic", "cyrillic", "iso-8859-5", "iso-ir-144", "iso8859-5",
                "iso88595", "iso_8859-5", "iso_8859-5:1988");
        add("ISO-8859-6", "ISO-8859-6", "arabic", "asmo-708", "csiso88596e", "csiso88596i", "csisolatinarabic",
                "ecma-114", "iso-8859-6", "iso-8859-6-e", "iso-8859-6-i", "iso-ir-127", "iso8859-6", "iso88596",
                "iso_8859-6", "iso_8859-6:1987");
        add("ISO-8859-7", "ISO-8859-7", "csisolatingreek", "ecma-118", "elot_928", "greek", "greek8", "iso-8859-7",
                "iso-ir-126", "iso8859-7", "iso88597", "iso_8859-7", "iso_8859-7:1987", "sun_eu_greek");
        add("ISO-8859-8", "ISO-8859-8", "csiso88598e", "csisolatinhebrew", "hebrew", "iso-8859-8", "iso-8859-8-e",
                "iso-ir-138", "iso8859-8", "iso88598", "iso_8859-8", "iso_8859-8:1988", "visual");
        // Logical and visual order differ in how text is laid out, not in how bytes map to characters.
        add("ISO-8859-8-I", "ISO-8859-8", "csiso88598i", "iso-8859-8-i", "logical");
        add("ISO-8859-10", "ISO-8859-10", "csisolatin6", "iso-8859-10", "iso-ir-157", "iso8859-10", "iso885910",
                "l6", "latin6");
        add("ISO-8859-13", "ISO-8859-13", "iso-8859-13", "iso8859-13", "iso885913");
        add("ISO-8859-14", "ISO-8859-14", "iso-8859-14", "iso8859-14", "iso885914");
        add("ISO-8859-15", "ISO-8859-15", "csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15",
                "l9");
        add("ISO-8859-16", "ISO-8859-16", "iso-8859-16");
        add("KOI8-R", "KOI8-R", "cskoi8r", "koi", "koi8", "koi8-r", "koi8_r");
        add("KOI8-U", "KOI8-U", "koi8-ru", "koi8-u");
        add("macintosh", "x-MacRoman", "csmacintosh", "mac", "macintosh", "x-mac-roman");
        add("windows-874", "x-windows-874", "dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620",
                "windows-874");
        add("windows-1250", "windows-1250", "cp1250", "windows-1250", "x-cp1250");
        add("windows-1251", "windows-1251", "cp1251", "windows-1251", "x-cp1251");
        add(WINDOWS_1252, "ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1",
                "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii",
                "windows-1252", "x-cp1252", "x-user-defined");
        add("windows-1253", "windows-1253", "cp1253", "windows-1253", "x-cp1253");
        add("windows-1254", "windows-1254", "cp1254", "csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9",
                "iso88599", "iso_8859-9", "iso_8859-9:1989", "l5", "latin5", "windows-1254", "x-cp1254");
        add("windows-1255", "windows-1255", "cp1255", "windows-1255", "x-cp1255");
        add("windows-1256", "windows-1256", "cp1256", "windows-1256", "x-cp1256");
        add("windows-1257", "windows-1257", "cp1257", "windows-1257", "x-cp1257");
        add("windows-1258", "windows-1258", "cp1258", "windows-1258", "x-cp1258");
        add("x-mac-cyrillic", "x-MacCyrillic", "x-mac-cyrillic", "x-mac-ukrainian");
        add("GBK", "GB18030", "chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk",
                "iso-ir-58", "x-gbk");
        add("gb18030", "GB18030", "gb18030");
        add("Big5", "Big5-HKSCS", "big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5");
        add("EUC-JP", "EUC-JP", "cseucpkdfmtjapanese", "euc-jp", "x-euc-jp");
        add("ISO-2022-JP", "ISO-2022-JP", "csiso2022jp", "iso-2022-jp");
        add("Shift_JIS", "windows-31j", "csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis",
                "windows-31j", "x-sjis");
        add("EUC-KR", "x-windows-949", "cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean",
                "ks_c_5601-1987", "ks_c_5601-1989", "ksc5601", "ksc_5601", "windows-949");
        add(UTF_16BE, "unicodefffe", "utf-16be");
        add(UTF_16LE, "csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16", "utf-16le");
    }

    private EncodingLabels() {}

    /**
     * The standard's "get an encoding": the label with ASCII whitespace trimmed, matched without regard to ASCII case.
     *
     * @return the encoding, or {@code null} for an unknown label or one this JDK cannot decode
     */
    static Encoding forLabel(String label) {
        if (label == null) {
            return null;
        }
        return BY_LABEL.get(asciiLowercase(trimAsciiWhitespace(label)));
    }

    /** Only A-Z: {@link String#toLowerCase} would also fold characters such as the Kelvin sign into ASCII. */
    static String asciiLowercase(String s) {
        StringBuilder lower = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                if (lower == null) {
                    lower = new StringBuilder(s);
                }
                lower.setCharAt(i, (char) (c + ('a' - 'A')));
            }
        }
        return lower == null ? s : lower.toString();
    }

    private static String trimAsciiWhitespace(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && isAsciiWhitespace(s.charAt(start))) {
            start++;
        }
        while (end > start && isAsciiWhitespace(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(start, end);
    }

    static boolean isAsciiWhitespace(int c) {
        return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' ';
    }

    private static void add(String name, String javaName, String... labels) {
        Charset charset;
        try {
            charset = Charset.isSupported(javaName) ? Charset.forName(javaName) : null;
        } catch (IllegalArgumentException e) {
            charset = null;
        }
        if (charset != null) {
            add(new Encoding(name, charset), labels);
        }
    }

    private static void add(Encoding encoding, String... labels) {
        for (String label : labels) {
            BY_LABEL.put(label, encoding);
        }
    }
}
