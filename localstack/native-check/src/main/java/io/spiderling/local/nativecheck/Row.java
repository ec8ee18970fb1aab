package io.spiderling.local.nativecheck;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** One line of the check: a scenario run by both builds, and whether they agree. */
public record Row(Scenario scenario, Optional<Invoker.Result> nativeRun, Optional<Invoker.Result> jvmRun,
        Verdict verdict) {

    /** How the two builds compare on one scenario. */
    public sealed interface Verdict {
        /** Both answered, the same after normalizing, and as expected. */
        record Same() implements Verdict {}

        /** Both answered as expected, but differently. */
        record Different(JsonNode nativeAnswer, JsonNode jvmAnswer) implements Verdict {}

        /** At least one build failed, or an answer was not what the scenario expects. */
        record Failed(List<String> problems) implements Verdict {}
    }

    /** A row for an event the check could not send (its file is missing), with no run of either build. */
    static Row notRun(Scenario scenario, String problem) {
        return new Row(scenario, Optional.empty(), Optional.empty(), new Verdict.Failed(List.of(problem)));
    }

    /** Compares two runs: failures and unmet expectations first, then the normalized answers. */
    static Row compare(Scenario scenario, Run nativeRun, Run jvmRun, AnswerNormalizer normalizer) {
        List<String> problems = new ArrayList<>();
        problems.addAll(problems("native", nativeRun));
        problems.addAll(problems("jvm", jvmRun));
        Verdict verdict;
        if (!problems.isEmpty()) {
            verdict = new Verdict.Failed(problems);
        } else {
            JsonNode nativeAnswer = normalizer.normalize(((Invoker.Result.Answered) nativeRun.result()).body());
            JsonNode jvmAnswer = normalizer.normalize(((Invoker.Result.Answered) jvmRun.result()).body());
            verdict = nativeAnswer.equals(jvmAnswer) ? new Verdict.Same()
                    : new Verdict.Different(nativeAnswer, jvmAnswer);
        }
        return new Row(scenario, Optional.of(nativeRun.result()), Optional.of(jvmRun.result()), verdict);
    }

    private static List<String> problems(String build, Run run) {
        List<String> problems = new ArrayList<>();
        if (run.result() instanceof Invoker.Result.Failed failed) {
            problems.add(build + ": " + failed.reason());
        }
        run.problems().forEach(p -> problems.add(build + ": " + p));
        return problems;
    }

    public boolean passed() {
        return verdict instanceof Verdict.Same;
    }

    static String summary(Optional<Invoker.Result> run) {
        return run.map(Row::summary).orElse("not run");
    }

    /** A few words on what came back: the HTTP status and body start, the failed messages, the number. */
    static String summary(Invoker.Result run) {
        return switch (run) {
            case Invoker.Result.Failed failed -> "FAILED";
            case Invoker.Result.Answered answered -> summary(answered.body());
        };
    }

    private static String summary(String body) {
        JsonNode answer;
        try {
            answer = SampleEvents.JSON.readTree(body);
        } catch (java.io.IOException notJson) {
            return body;
        }
        if (answer.has("statusCode")) {
            return answer.get("statusCode").asText() + " " + answer.path("body").asText();
        } else if (answer.has("batchItemFailures")) {
            return answer.get("batchItemFailures").isEmpty() ? "no failed messages"
                    : answer.get("batchItemFailures").size() + " failed messages";
        }
        return answer.toString();
    }

    static String millis(Optional<Invoker.Result> run) {
        return number(run.map(r -> r.measured().startMillis()).orElse(OptionalLong.empty()), 1);
    }

    static String megabytes(Optional<Invoker.Result> run) {
        return number(run.map(r -> r.measured().peakRssKib()).orElse(OptionalLong.empty()), 1024);
    }

    private static String number(OptionalLong value, long divisor) {
        return value.isPresent() ? String.valueOf(Math.round((double) value.getAsLong() / divisor)) : "-";
    }
}
