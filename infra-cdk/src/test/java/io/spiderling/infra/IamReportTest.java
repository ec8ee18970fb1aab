package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.spiderling.catalog.FunctionSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Writes each function's IAM actions, per resource, as the default deployment's template grants them, to
 * {@code target/iam-actions.txt}: the table a review of the roles starts from (compare two commits' files).
 */
class IamReportTest {

    @Test
    void report_whenSynthesized_listsEachFunctionsActions() throws IOException {
        Synthesized jvm = Synth.jvmIam();
        List<String> lines = new ArrayList<>();
        for (FunctionSpec spec : jvm.props().functions()) {
            Map<String, Set<String>> byAction = new TreeMap<>();
            for (Map<String, Object> statement : Policies.statements(jvm, spec)) {
                for (Object action : Policies.list(statement.get("Action"))) {
                    for (Object resource : Policies.list(statement.get("Resource"))) {
                        byAction.computeIfAbsent(String.valueOf(action), a -> new TreeSet<>())
                                .add(Synthesized.ref(resource));
                    }
                }
            }
            lines.add(spec.name() + " (" + byAction.size() + " actions)");
            byAction.forEach((action, resources) -> lines.add("  " + action + "  " + String.join(" ", resources)));
            lines.add("");
        }
        assertFalse(lines.isEmpty());
        Path out = Path.of("target", "iam-actions.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, lines);
    }
}
