package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.cxapi.SynthesisMessage;

/** The AwsSolutions checks of cdk-nag, run on the default deployment (see {@link Synth#jvmIam()}). */
class NagTest {

    @Test
    void awsSolutions_whenDeployed_leaveNoUnsuppressedErrorOrWarning() {
        Annotations annotations = Annotations.fromStack(Synth.jvmIam().stack());
        List<SynthesisMessage> findings = new ArrayList<>(
                annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*")));
        findings.addAll(annotations.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")));
        assertEquals(List.of(), findings.stream().map(f -> f.getId() + ": " + f.getEntry().getData()).toList());
        // Nor any other warning (e.g. SnapStart without a published version).
        assertEquals(List.of(), annotations.findWarning("*", Match.anyValue()).stream()
                .map(f -> f.getId() + ": " + f.getEntry().getData()).toList());
    }

    @Test
    void awsSolutions_whenFindingsAccepted_eachSaysWhyAndNamesItsFindings() {
        Synthesized jvm = Synth.jvmIam();
        int suppressions = 0;
        for (Map.Entry<String, Map<String, Object>> resource : jvm.allResources().entrySet()) {
            @SuppressWarnings("unchecked")
            var metadata = (Map<String, Object>) resource.getValue().getOrDefault("Metadata", Map.of());
            @SuppressWarnings("unchecked")
            var nag = (Map<String, List<Map<String, Object>>>) metadata.get("cdk_nag");
            if (nag == null) {
                continue;
            }
            for (Map<String, Object> rule : nag.get("rules_to_suppress")) {
                suppressions++;
                String reason = (String) rule.get("reason");
                assertTrue(reason.length() > 80 && reason.contains(" "), resource.getKey() + ": " + reason);
                if ("AwsSolutions-IAM5".equals(rule.get("id"))) {
                    // Wildcards are accepted one by one, never wholesale.
                    List<?> appliesTo = (List<?>) rule.get("applies_to");
                    assertFalse(appliesTo == null || appliesTo.isEmpty(), resource.getKey());
                }
            }
        }
        assertTrue(suppressions > 0);
    }
}
