package io.spiderling.catalog;

import java.util.Objects;
import java.util.Optional;

/**
 * One thing a function's code does to one part of the deployment: an action on a table or one of its indexes, on the
 * objects under a bucket prefix, a send to a queue, a read of a secret. A catalog entry declares each (see
 * {@link Catalog}); the CDK stack grants exactly these, and the least-privilege check holds them to the calls the
 * functions make in the end-to-end suites, naming a missing one by {@link #declaration()}.
 */
public sealed interface Permission extends Comparable<Permission> {

    /** The IAM action, {@code dynamodb:Query}. */
    String iamAction();

    /**
     * The resource as the catalog names it, as the call recorder writes it: {@code table:SITES},
     * {@code table:SITES/index/byOrder}, {@code object:content/*}, {@code bucket:uploads/}, {@code queue:FETCH},
     * {@code secret:CLIENTS}.
     */
    String resource();

    /** The builder call that declares it, as a message asking for it shows it. */
    String declaration();

    @Override
    default int compareTo(Permission o) {
        int c = resource().compareTo(o.resource());
        return c != 0 ? c : iamAction().compareTo(o.iamAction());
    }

    /** {@code action} on {@code table}'s items, or on its index {@code index} (a query only). */
    record OnTable(Table table, Optional<String> index, DynamoDbAction action) implements Permission {
        public OnTable {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(index, "index");
            Objects.requireNonNull(action, "action");
            index.ifPresent(name -> {
                if (table.localIndexes().stream().noneMatch(i -> i.name().equals(name))) {
                    throw new IllegalArgumentException(table + " has no index " + name);
                }
                if (action != DynamoDbAction.QUERY) {
                    throw new IllegalArgumentException("an index is only queried, not " + action);
                }
            });
        }

        @Override
        public String iamAction() {
            return action.iamAction();
        }

        @Override
        public String resource() {
            return "table:" + table.name() + index.map(i -> "/index/" + i).orElse("");
        }

        @Override
        public String declaration() {
            return index.map(i -> ".index(Table." + table.name() + ", \"" + i + "\", " + action.name() + ")")
                    .orElseGet(() -> ".table(Table." + table.name() + ", " + action.name() + ")");
        }
    }

    /** {@code action} on the objects under {@code prefix} (or, for a listing, on the bucket for keys under it). */
    record OnObjects(BucketPrefix prefix, S3Action action) implements Permission {
        public OnObjects {
            Objects.requireNonNull(prefix, "prefix");
            Objects.requireNonNull(action, "action");
        }

        @Override
        public String iamAction() {
            return action.iamAction();
        }

        @Override
        public String resource() {
            return action.onBucket() ? "bucket:" + prefix.prefix() : "object:" + prefix.prefix() + "*";
        }

        @Override
        public String declaration() {
            return ".objects(BucketPrefix." + prefix.name() + ", " + action.name() + ")";
        }
    }

    /** Sending to {@code queue}, one message or a batch. */
    record SendsTo(Queue queue) implements Permission {
        public SendsTo {
            Objects.requireNonNull(queue, "queue");
        }

        @Override
        public String iamAction() {
            return "sqs:SendMessage";
        }

        @Override
        public String resource() {
            return "queue:" + queue.name();
        }

        @Override
        public String declaration() {
            return ".sends(Queue." + queue.name() + ")";
        }
    }

    /** Reading {@code secret}'s value. */
    record ReadsSecret(Secret secret) implements Permission {
        public ReadsSecret {
            Objects.requireNonNull(secret, "secret");
        }

        @Override
        public String iamAction() {
            return "secretsmanager:GetSecretValue";
        }

        @Override
        public String resource() {
            return "secret:" + secret.name();
        }

        @Override
        public String declaration() {
            return ".reads(Secret." + secret.name() + ")";
        }
    }
}
