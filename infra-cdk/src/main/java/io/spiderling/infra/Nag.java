package io.spiderling.infra;

import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.List;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.Stack;
import software.constructs.IConstruct;

/**
 * Accepting a cdk-nag AwsSolutions finding: always on the one resource it concerns, always with the reason, and for
 * rules that report several findings per resource (IAM5) only the findings named.
 */
final class Nag {

    private Nag() {}

    static void accept(IConstruct resource, String rule, String reason) {
        NagSuppressions.addResourceSuppressions(resource, List.of(NagPackSuppression.builder()
                .id(rule)
                .reason(reason)
                .build()), true);
    }

    /** @param findings the finding texts, e.g. {@code Action::s3:List*} or {@code Resource::<Bucket.Arn>/x/*} */
    static void accept(IConstruct resource, String rule, String reason, List<String> findings) {
        NagSuppressions.addResourceSuppressions(resource, List.of(NagPackSuppression.builder()
                .id(rule)
                .reason(reason)
                .appliesTo(List.copyOf(findings))
                .build()), true);
    }

    /** The logical id of a construct's CloudFormation resource, as cdk-nag writes it in a finding. */
    static String logicalId(IConstruct construct) {
        Stack stack = Stack.of(construct);
        return stack.resolve(stack.getLogicalId((CfnElement) construct.getNode().getDefaultChild())).toString();
    }
}
