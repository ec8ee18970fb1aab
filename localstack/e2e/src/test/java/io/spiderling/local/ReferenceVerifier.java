package io.spiderling.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Cloudflare's reference implementation of Web Bot Auth ({@code web-bot-auth} 0.1.3 from npm), run under Node by
 * {@code src/test/node/web-bot-auth/verify.mjs}. Installed with {@code npm ci} from its lock file into
 * {@code target/}, once. Without Node the test fails: an independent check that is skipped proves nothing.
 */
final class ReferenceVerifier {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SOURCE = Path.of("src/test/node/web-bot-auth");
    private static final Path INSTALLED = Path.of("target/web-bot-auth-verifier");

    private ReferenceVerifier() {}

    /** Runs the verifier on {@code input} and returns its verdicts. */
    static JsonNode verify(JsonNode input) throws Exception {
        Path dir = install();
        Process node = new ProcessBuilder("node", "verify.mjs").directory(dir.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        node.getOutputStream().write(JSON.writeValueAsBytes(input));
        node.getOutputStream().close();
        byte[] out = node.getInputStream().readAllBytes();
        if (!node.waitFor(60, TimeUnit.SECONDS) || node.exitValue() != 0) {
            throw new AssertionError("the reference verifier failed: " + new String(out, StandardCharsets.UTF_8));
        }
        return JSON.readTree(out);
    }

    private static synchronized Path install() throws Exception {
        run(List.of("node", "--version"), Path.of("."), "Node.js is needed on the path for the Web Bot Auth test");
        Files.createDirectories(INSTALLED);
        for (String file : List.of("package.json", "package-lock.json", "verify.mjs")) {
            Files.copy(SOURCE.resolve(file), INSTALLED.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        if (!Files.isDirectory(INSTALLED.resolve("node_modules/web-bot-auth"))) {
            run(List.of("npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"), INSTALLED,
                    "npm ci of the reference verifier failed");
        }
        return INSTALLED;
    }

    private static void run(List<String> command, Path dir, String failure) throws Exception {
        Process process;
        try {
            process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError(failure + ": " + e.getMessage(), e);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new AssertionError(failure + ": " + output);
        }
    }
}
