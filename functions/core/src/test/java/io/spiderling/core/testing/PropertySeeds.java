package io.spiderling.core.testing;

/**
 * The seed every property test uses ({@code @Property(seed = PropertySeeds.FIXED)}): jqwik 1.9 has no configuration
 * key for a default seed, and a random one would make CI runs differ. To explore further, run a property with another
 * seed locally; a failure it finds becomes a case in the property's table test.
 */
public final class PropertySeeds {

    public static final String FIXED = "20261124";

    private PropertySeeds() {}
}
