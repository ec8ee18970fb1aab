package io.spiderling.core.politeness;

/** The random part of a decision is passed in, so the decision stays a function of its inputs. */
final class Jitter {

    private Jitter() {}

    /** A jitter must be what {@code Random.nextDouble()} returns: in [0, 1). */
    static double require(double jitter) {
        if (!(jitter >= 0 && jitter < 1)) {
            throw new IllegalArgumentException("jitter must be in [0, 1), was " + jitter);
        }
        return jitter;
    }
}
