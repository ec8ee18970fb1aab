package io.spiderling.local.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * A run's results on disk: {@code results.jsonl}, one line per submitted line in input order, and the bodies under
 * {@code bodies/<first 2 hex>/<sha256>}, each stored once however many URLs served it, and checked against its
 * digest when downloaded.
 */
final class OutputFolder {

    static final String RESULTS = "results.jsonl";
    static final String BODIES = "bodies";
    /** The submitted lines, when no file of the user's holds them: the demo's, or standard input's. */
    static final String INPUT = "input.txt";

    /** What was written. */
    record Written(Path results, int lines, int bodies, int bodiesReused, List<String> bodyErrors) {}

    private final Path dir;

    OutputFolder(Path dir) {
        this.dir = dir;
    }

    /** {@code spiderling-out/<batchId>} in the working directory: one folder per batch unless {@code --out} says. */
    static Path defaultFor(String batchId) {
        return Path.of("spiderling-out", batchId);
    }

    Path dir() {
        return dir;
    }

    /**
     * Writes the lines, and with {@code api} the bodies they name through {@code GET /urls/content}. The results file
     * is replaced whole (written aside, then moved), so a crash never leaves half of one.
     */
    Written write(List<ResultLine> lines, Optional<ApiClient> api) {
        try {
            Files.createDirectories(dir);
            int bodies = 0;
            int reused = 0;
            List<String> errors = new java.util.ArrayList<>();
            Path tmp = dir.resolve(RESULTS + ".tmp");
            try (BufferedWriter out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                for (ResultLine line : lines) {
                    Optional<String> body = Optional.empty();
                    if (api.isPresent() && line.contentSha256().isPresent() && line.url().isPresent()) {
                        String sha = line.contentSha256().get();
                        Path file = bodyPath(sha);
                        if (Files.exists(file)) {
                            reused++;
                            body = Optional.of(dir.relativize(file).toString());
                        } else {
                            Optional<String> error = download(api.get(), line.url().get(), sha, file);
                            if (error.isEmpty()) {
                                bodies++;
                                body = Optional.of(dir.relativize(file).toString());
                            } else {
                                errors.add(UrlText.shorten(line.url().get()) + ": " + error.get());
                            }
                        }
                    }
                    out.write(line.toJson(body).toString());
                    out.write('\n');
                }
            }
            Path results = dir.resolve(RESULTS);
            Files.move(tmp, results, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return new Written(results, lines.size(), bodies, reused, errors);
        } catch (IOException e) {
            throw new CliException(ExitCode.UNAVAILABLE, "cannot write to " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Writes the submitted lines, one per line, in the order {@code results.jsonl} answers them. */
    Path writeInput(List<String> urls) {
        try {
            Files.createDirectories(dir);
            return Files.write(dir.resolve(INPUT), urls, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CliException(ExitCode.UNAVAILABLE, "cannot write to " + dir + ": " + e.getMessage(), e);
        }
    }

    Path bodyPath(String sha256) {
        return dir.resolve(BODIES).resolve(sha256.substring(0, 2)).resolve(sha256);
    }

    /** Fetches a presigned link for the URL's body and stores it, if its digest is the one expected. */
    private static Optional<String> download(ApiClient api, String url, String sha256, Path file) throws IOException {
        ApiClient.Response link = api.get("/urls/content?url=" + URLEncoder.encode(url, StandardCharsets.UTF_8));
        if (!link.ok() || !link.body().hasNonNull("contentUrl")) {
            return Optional.of("no content link (" + link.status() + ": " + link.error() + ")");
        }
        Files.createDirectories(file.getParent());
        Path part = file.resolveSibling(sha256 + ".part");
        int status = api.download(URI.create(link.body().get("contentUrl").asText()), part);
        if (status != 200) {
            Files.deleteIfExists(part);
            return Optional.of("content download answered " + status);
        }
        String actual = sha256Of(part);
        if (!actual.equals(sha256)) {
            Files.deleteIfExists(part);
            return Optional.of("downloaded body has sha256 " + actual + ", expected " + sha256);
        }
        Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return Optional.empty();
    }

    private static String sha256Of(Path file) throws IOException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), sha256())) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
