package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.LocalSites;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The README's "run it locally" command, as the runner executes it. */
@ExtendWith(EmbeddedAwsExtension.class)
class LocalMainTest {

    @Test
    void run_whenDemo_expectBatchDoneAndSummaryPrinted(EmbeddedAws aws) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int code = LocalMain.run(LocalMain.Args.parse(new String[] {"--demo"}), InputStream.nullInputStream(),
                new PrintStream(out, true, StandardCharsets.UTF_8), aws, "cli-demo");

        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, printed);
        assertTrue(printed.contains("POST /batches -> 202"), printed);
        assertTrue(printed.matches("(?s).*Batch \\S+ done in .*"), printed);
        assertTrue(printed.matches("(?s).*fetched\\s+60\\n.*"), printed);
        assertTrue(printed.matches("(?s).*failed\\s+1\\n.*"), printed);
        assertTrue(printed.contains("unsupported scheme: ftp"), printed);
        assertTrue(printed.contains("s3://cli-demo-content/content/"), printed);
        assertTrue(printed.contains("Site 1, page 1"), printed);
    }

    @Test
    void run_whenUrlsOnStdin_expectThoseFetched(EmbeddedAws aws) throws Exception {
        try (LocalSites sites = LocalSites.demoSites(1, 2)) {
            String input = "# two pages\n" + sites.site(0).url("/page/1") + "\n\n" + sites.site(0).url("/page/2") + "\n";
            ByteArrayOutputStream out = new ByteArrayOutputStream();

            int code = LocalMain.run(LocalMain.Args.parse(new String[] {"-"}),
                    new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                    new PrintStream(out, true, StandardCharsets.UTF_8), aws, "cli-stdin");

            String printed = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, code, printed);
            assertTrue(printed.matches("(?s).*fetched\\s+2\\n.*"), printed);
            assertEquals(1, sites.site(0).requestCount("/page/1"));
        }
    }

    @Test
    void parse_whenUnknownFlagOrMissingValue_expectClearError() {
        var unknown = assertThrows(IllegalArgumentException.class, () -> LocalMain.Args.parse(new String[] {"--nope"}));
        assertEquals("unexpected argument: --nope", unknown.getMessage());
        var missing = assertThrows(IllegalArgumentException.class, () -> LocalMain.Args.parse(new String[] {"--port"}));
        assertEquals("--port needs a value", missing.getMessage());
        assertEquals(Optional.of("urls.txt"), LocalMain.Args.parse(new String[] {"urls.txt"}).file());
    }
}
