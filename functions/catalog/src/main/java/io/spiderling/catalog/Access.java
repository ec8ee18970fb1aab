package io.spiderling.catalog;

/** How a function may use a table or a bucket prefix; IAM grants follow it and nothing else. */
public enum Access {
    READ,
    WRITE,
    READ_WRITE;

    public boolean reads() {
        return this != WRITE;
    }

    public boolean writes() {
        return this != READ;
    }

    /** What both allow together: a use case that reads and another that writes make a reader-writer. */
    public Access union(Access other) {
        return this == other ? this : READ_WRITE;
    }
}
