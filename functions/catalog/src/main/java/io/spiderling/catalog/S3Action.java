package io.spiderling.catalog;

/**
 * The S3 actions a function's code calls on a bucket prefix: {@code s3:GetObject} also authorizes a HeadObject and
 * the source of a copy, {@code s3:PutObject} the target of a copy, and a URL the function presigns lets its holder do
 * the same with the function's rights. {@link #LIST_BUCKET} is granted on the bucket, for keys under the prefix only.
 */
public enum S3Action {
    GET_OBJECT("GetObject"),
    PUT_OBJECT("PutObject"),
    DELETE_OBJECT("DeleteObject"),
    /** Listing the keys under the prefix (ListObjectsV2). */
    LIST_BUCKET("ListBucket");

    private final String iamName;

    S3Action(String iamName) {
        this.iamName = iamName;
    }

    /** The IAM action, {@code s3:GetObject}. */
    public String iamAction() {
        return "s3:" + iamName;
    }

    /** Whether the action changes objects. */
    public boolean writes() {
        return this == PUT_OBJECT || this == DELETE_OBJECT;
    }

    /** Whether IAM grants it on the bucket (with a prefix condition), not on the objects. */
    public boolean onBucket() {
        return this == LIST_BUCKET;
    }
}
