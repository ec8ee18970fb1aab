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
}
