package io.spiderling.core.port;

/**
 * The operators' kill switch. While it is off, no site is contacted: jobs that arrive wait in the frontier and the
 * frontier sends none, so turning it on again continues where fetching stopped, with nothing lost.
 */
@FunctionalInterface
public interface FetchSwitch {

    FetchSwitch ALWAYS_ON = () -> false;

    /** Whether fetching is paused now. */
    boolean paused();
}
