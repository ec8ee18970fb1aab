package io.spiderling.catalog;

/**
 * One of the fixed set of values a configuration key takes ({@link ConfigKey#oneOf}): an enum whose constants are
 * written in {@code application.properties} and in the functions' environment by their {@link #wireName}.
 */
public interface ConfigChoice {

    /** The value as configured, e.g. {@code token-file}. */
    String wireName();
}
