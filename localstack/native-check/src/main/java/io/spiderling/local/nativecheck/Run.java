package io.spiderling.local.nativecheck;

import java.util.List;

/**
 * One build's run of one scenario.
 *
 * @param result what the function's process did
 * @param problems what the scenario's expectations found wrong with the answer; empty when the run failed outright
 *     (the failure says enough) or when the answer is as expected
 */
public record Run(Invoker.Result result, List<String> problems) {

    public Run {
        problems = List.copyOf(problems);
    }
}
