package io.spiderling.catalog;

/**
 * The DynamoDB item actions a function's code calls. A transaction needs no action of its own: IAM authorizes
 * {@code TransactWriteItems} by its items' actions (put, update, delete, condition check) and {@code TransactGetItems}
 * by {@code GetItem}.
 */
public enum DynamoDbAction {
    GET_ITEM("GetItem"),
    BATCH_GET_ITEM("BatchGetItem"),
    QUERY("Query"),
    PUT_ITEM("PutItem"),
    UPDATE_ITEM("UpdateItem"),
    DELETE_ITEM("DeleteItem"),
    BATCH_WRITE_ITEM("BatchWriteItem"),
    /** A transaction's item that only checks a condition. */
    CONDITION_CHECK_ITEM("ConditionCheckItem");

    private final String iamName;

    DynamoDbAction(String iamName) {
        this.iamName = iamName;
    }

    /** The IAM action, {@code dynamodb:GetItem}. */
    public String iamAction() {
        return "dynamodb:" + iamName;
    }

    /** Whether the action changes items. */
    public boolean writes() {
        return switch (this) {
            case PUT_ITEM, UPDATE_ITEM, DELETE_ITEM, BATCH_WRITE_ITEM -> true;
            case GET_ITEM, BATCH_GET_ITEM, QUERY, CONDITION_CHECK_ITEM -> false;
        };
    }
}
