package io.spiderling.core.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TrackingParametersTest {

    @Test
    void parse_whenNamesAndPrefixes_splitsThemLowerCasedAndSorted() {
        TrackingParameters parsed = TrackingParameters.parse(" gclid, UTM_*,fbclid ,mc_*");

        assertEquals(List.of("fbclid", "gclid"), parsed.names());
        assertEquals(List.of("mc_", "utm_"), parsed.prefixes());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", ",", " , ,"})
    void parse_whenBlank_isNone(String value) {
        TrackingParameters parsed = TrackingParameters.parse(value);

        assertSame(TrackingParameters.none(), parsed);
        assertTrue(parsed.isEmpty());
    }

    @Test
    void parse_whenDuplicatesOrCaseVariants_keepsOne() {
        assertEquals(TrackingParameters.parse("gclid,utm_*"), TrackingParameters.parse("GCLID,gclid,utm_*,Utm_*,"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"*", "utm*_", "u*m_*", "utm_**", "a b", "a=b", "a&b", "a?b", "a#b", "caf\u00e9", "a%20"})
    void parse_whenEntryIsNotNameOrPrefix_throwsNamingIt(String entry) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TrackingParameters.parse("gclid," + entry));

        assertTrue(e.getMessage().contains("'" + entry.strip() + "'"), e.getMessage());
    }

    @Test
    void toString_whenParsedBack_isEqual() {
        TrackingParameters defaults = TrackingParameters.defaults();

        assertEquals(defaults, TrackingParameters.parse(defaults.toString()));
        assertEquals("utm_*,_ga,_gl,dclid,fbclid,gbraid,gclid,igshid,mc_cid,mc_eid,msclkid,ref_src,wbraid,yclid",
                defaults.toString());
    }

    @Test
    void of_whenEntries_isSameAsParsingThemJoined() {
        assertEquals(TrackingParameters.parse("utm_*,gclid"), TrackingParameters.of(List.of("utm_*", " gclid ", "")));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
            "utm_source,   true",
            "UTM_SOURCE,   true",
            "utm_,         true",
            "utm,          false",
            "xutm_source,  false",
            "gclid,        true",
            "GClid,        true",
            "gclid2,       false",
            "agclid,       false",
            "_ga,          true",
            "_gac,         false",
            "q,            false",
    })
    void matches_whenDefaults_isCaseInsensitiveExactNameOrPrefix(String name, boolean expected) {
        assertEquals(expected, TrackingParameters.defaults().matches(name));
    }

    @Test
    void matches_whenNone_isAlwaysFalse() {
        assertFalse(TrackingParameters.none().matches("utm_source"));
        assertFalse(TrackingParameters.none().matches(""));
    }

    @Test
    void constructor_whenPrefixIsEmpty_throws() {
        assertThrows(IllegalArgumentException.class, () -> new TrackingParameters(List.of(), List.of("")));
    }

    @Test
    void constructor_whenNameHasWildcard_throws() {
        assertThrows(IllegalArgumentException.class, () -> new TrackingParameters(List.of("utm_*"), List.of()));
    }
}
