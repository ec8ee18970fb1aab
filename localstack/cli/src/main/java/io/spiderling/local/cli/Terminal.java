package io.spiderling.local.cli;

import java.io.Console;

/** Whether standard output is a person's terminal (then the CLI draws a live bar) or a file, a pipe or CI. */
final class Terminal {

    private Terminal() {}

    static boolean interactive() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        // From JDK 22 System.console() is there even when redirected; Console.isTerminal() then tells. Compiled for
        // 21, so called reflectively.
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException olderJdk) {
            return true;
        }
    }
}
