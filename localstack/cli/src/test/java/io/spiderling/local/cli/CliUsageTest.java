package io.spiderling.local.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.testkit.DataFolder;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every user mistake gets one clear line and its documented exit code, before anything slow starts. */
class CliUsageTest {

    @TempDir
    Path dir;

    @Test
    void fetch_whenFileMissing_expectUsageErrorNamingIt() {
        CliRun run = CliRun.of("fetch", dir.resolve("nope.txt").toString());

        assertEquals(ExitCode.USAGE.code(), run.code(), run.toString());
        assertTrue(run.err().contains("no such file: " + dir.resolve("nope.txt")), run.toString());
        assertFalse(run.err().contains("Exception"), run.toString());
    }

    @Test
    void fetch_whenFileHasOnlyCommentsAndBlanks_expectUsageErrorSayingSo() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.txt"), "# nothing\n\n   \n");

        CliRun run = CliRun.of("fetch", empty.toString());

        assertEquals(ExitCode.USAGE.code(), run.code(), run.toString());
        assertTrue(run.err().contains(empty + " holds no URLs"), run.toString());
    }

    @Test
    void fetch_whenStdinEmpty_expectUsageError() {
        CliRun run = CliRun.withStdin("", "fetch", "-");

        assertEquals(ExitCode.USAGE.code(), run.code(), run.toString());
        assertTrue(run.err().contains("standard input holds no URLs"), run.toString());
    }

    @Test
    void fetch_whenNoFileAndNoDemo_expectUsageError() {
        CliRun run = CliRun.of("fetch");

        assertEquals(ExitCode.USAGE.code(), run.code(), run.toString());
        assertTrue(run.err().contains("give a file of URLs"), run.toString());
    }

    @Test
    void fetch_whenUnknownOption_expectUsageWithTheOption() {
        CliRun run = CliRun.of("fetch", "--nope", "urls.txt");

        assertEquals(ExitCode.USAGE.code(), run.code(), run.toString());
        assertTrue(run.err().contains("--nope"), run.toString());
    }

    @Test
    void fetch_whenPortInUse_expectUnavailableBeforeStartingTheStack() throws Exception {
        Path urls = Files.writeString(dir.resolve("urls.txt"), "http://127.0.0.2:1/\n");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CliRun run = CliRun.of("fetch", "--port", String.valueOf(taken.getLocalPort()), urls.toString());

            assertEquals(ExitCode.UNAVAILABLE.code(), run.code(), run.toString());
            assertTrue(run.err().contains("port " + taken.getLocalPort() + " on 127.0.0.1 is in use"), run.toString());
        }
    }

    @Test
    void fetch_whenEndpointUnreachable_expectUnavailable() throws Exception {
        Path urls = Files.writeString(dir.resolve("urls.txt"), "http://127.0.0.2:1/\n");
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }

        CliRun run = CliRun.of("fetch", "--endpoint", "http://127.0.0.1:" + closed, "--token", "t", urls.toString());

        assertEquals(ExitCode.UNAVAILABLE.code(), run.code(), run.toString());
        assertTrue(run.err().contains("cannot reach http://127.0.0.1:" + closed + ": connection refused"),
                run.toString());
    }

    @Test
    void fetch_whenEndpointWithoutToken_expectUsageNamingBothWays() throws Exception {
        Path urls = Files.writeString(dir.resolve("urls.txt"), "http://127.0.0.2:1/\n");

        CliRun run = CliRun.of("fetch", "--endpoint", "http://127.0.0.1:9", "--token", "", urls.toString());

        assertEquals(ExitCode.USAGE.code(), run.code(), run.toString());
        assertTrue(run.err().contains("--token or SPIDERLING_TOKEN"), run.toString());
    }

    @Test
    void fetch_whenDataFolderHeldByAnotherProcess_expectUnavailableNamingFolderAndPid() throws Exception {
        Path urls = Files.writeString(dir.resolve("urls.txt"), "http://127.0.0.2:1/\n");
        Path data = dir.resolve("data");
        try (DataFolder held = DataFolder.lock(data)) {
            CliRun run = CliRun.of("fetch", "--data", data.toString(), urls.toString());

            assertEquals(ExitCode.UNAVAILABLE.code(), run.code(), run.toString());
            assertTrue(run.err().contains("the data folder " + data), run.toString());
            assertTrue(run.err().contains("in use by process " + ProcessHandle.current().pid()), run.toString());
        }
    }

    @Test
    void status_whenMemory_expectUsageSayingAnEmptyStackKnowsNothing() {
        CliRun run = CliRun.of("status", "--memory", "k-1");

        assertEquals(ExitCode.USAGE.code(), run.code(), run.toString());
        assertTrue(run.err().contains("--memory starts an empty stack"), run.toString());
    }

    @Test
    void fetch_whenWarcWithEndpoint_expectUsageSayingWhy() throws Exception {
        Path urls = Files.writeString(dir.resolve("urls.txt"), "http://127.0.0.2:1/\n");

        CliRun run = CliRun.of("fetch", "--warc", "--endpoint", "http://127.0.0.1:9", "--token", "t", urls.toString());

        assertEquals(ExitCode.USAGE.code(), run.code(), run.toString());
        assertTrue(run.err().contains("--warc reads the captures from the embedded stack"), run.toString());
    }

    @Test
    void fetch_whenIncludeNoarchiveWithoutWarc_expectUsageSayingItNeedsWarc() throws Exception {
        Path urls = Files.writeString(dir.resolve("urls.txt"), "http://127.0.0.2:1/\n");

        CliRun run = CliRun.of("fetch", "--include-noarchive", urls.toString());

        assertEquals(ExitCode.USAGE.code(), run.code(), run.toString());
        assertTrue(run.err().contains("--include-noarchive only changes what --warc writes"), run.toString());
    }

    @Test
    void help_expectExitCodesDocumented() {
        CliRun run = CliRun.of("--help");

        assertEquals(0, run.code(), run.toString());
        assertTrue(run.out().contains("Exit codes:"), run.toString());
        assertTrue(run.out().contains("fetch"), run.toString());
    }
}
