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
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run's results on disk: {@code results.jsonl}, one line per submitted line in input order, the bodies under
 * {@code bodies/<first 2 hex>/<sha256>}, and the Markdown of pages' main content (asked with {@code --markdown}) under
 * {@code markdown/<first 2 hex>/<sha256>.md}: each stored once however many URLs served it, and checked against its
 * digest when downloaded.
 */
final class OutputFolder {

    static final String RESULTS = "results.jsonl";
    static final String BODIES = "bodies";
    static final String MARKDOWN = "markdown";
    /** The submitted lines, when no file of the user's holds them: the demo's, or standard input's. */
    static final String INPUT = "input.txt";

    /**
     * What was written.
     *
     * @param markdown the Markdown files downloaded (not counting those already in the folder)
     * @param bodyErrors the bodies and Markdown files that could not be downloaded, each with why
     */
    record Written(Path results, int lines, int bodies, int bodiesReused, int markdown, List<String> bodyErrors) {}

    /** A kind of file kept beside the results: where it goes, and the API route that links to it. */
    private enum Kept {
        BODY(BODIES, "", "/urls/content?url=", "contentUrl"),
        MARKDOWN_FILE(MARKDOWN, ".md", "/urls/markdown?url=", "markdownUrl");

        private final String folder;
        private final String suffix;
        private final String route;
        private final String linkMember;

        Kept(String folder, String suffix, String route, String linkMember) {
            this.folder = folder;
            this.suffix = suffix;
            this.route = route;
            this.linkMember = linkMember;
        }
    }

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
     * Writes the lines, and with {@code api} the bodies they name through {@code GET /urls/content} and their Markdown
     * through {@code GET /urls/markdown}. The results file is replaced whole (written aside, then moved), so a crash
     * never leaves half of one.
     */
    Written write(List<ResultLine> lines, Optional<ApiClient> api) {
        try {
            Files.createDirectories(dir);
            Map<Kept, int[]> downloaded = new EnumMap<>(Kept.class);
            int[] reused = new int[1];
            List<String> errors = new java.util.ArrayList<>();
            Path tmp = dir.resolve(RESULTS + ".tmp");
            try (BufferedWriter out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                for (ResultLine line : lines) {
                    Optional<String> body = Optional.empty();
                    Optional<String> markdown = Optional.empty();
                    if (api.isPresent() && line.url().isPresent()) {
                        body = keep(api.get(), Kept.BODY, line, line.contentSha256(), downloaded, errors, reused);
                        markdown = keep(api.get(), Kept.MARKDOWN_FILE, line, line.markdownSha256(), downloaded,
                                errors, new int[1]);
                    }
                    out.write(line.toJson(body, markdown).toString());
                    out.write('\n');
                }
            }
            Path results = dir.resolve(RESULTS);
            Files.move(tmp, results, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return new Written(results, lines.size(), downloaded.getOrDefault(Kept.BODY, new int[1])[0], reused[0],
                    downloaded.getOrDefault(Kept.MARKDOWN_FILE, new int[1])[0], errors);
        } catch (IOException e) {
            throw new CliException(ExitCode.UNAVAILABLE, "cannot write to " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * The file of kind {@code kind} with digest {@code sha}, downloaded unless the folder has it: its path relative to
     * the folder, or empty when there is none or it could not be downloaded (then the error is added).
     */
    private Optional<String> keep(ApiClient api, Kept kind, ResultLine line, Optional<String> sha,
            Map<Kept, int[]> downloaded, List<String> errors, int[] reused) throws IOException {
        if (sha.isEmpty()) {
            return Optional.empty();
        }
        Path file = path(kind, sha.get());
        if (Files.exists(file)) {
            reused[0]++;
            return Optional.of(dir.relativize(file).toString());
        }
        Optional<String> error = download(api, kind, line.url().orElseThrow(), sha.get(), file);
        if (error.isPresent()) {
            errors.add(UrlText.shorten(line.url().get()) + ": " + error.get());
            return Optional.empty();
        }
        downloaded.computeIfAbsent(kind, k -> new int[1])[0]++;
        return Optional.of(dir.relativize(file).toString());
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
        return path(Kept.BODY, sha256);
    }

    Path markdownPath(String sha256) {
        return path(Kept.MARKDOWN_FILE, sha256);
    }

    private Path path(Kept kind, String sha256) {
        return dir.resolve(kind.folder).resolve(sha256.substring(0, 2)).resolve(sha256 + kind.suffix);
    }

    /** Fetches a presigned link for the URL's file of this kind and stores it, if its digest is the one expected. */
    private static Optional<String> download(ApiClient api, Kept kind, String url, String sha256, Path file)
            throws IOException {
        ApiClient.Response link = api.get(kind.route + URLEncoder.encode(url, StandardCharsets.UTF_8));
        if (!link.ok() || !link.body().hasNonNull(kind.linkMember)) {
            return Optional.of("no " + kind.folder + " link (" + link.status() + ": " + link.error() + ")");
        }
        Files.createDirectories(file.getParent());
        Path part = file.resolveSibling(sha256 + ".part");
        int status = api.download(URI.create(link.body().get(kind.linkMember).asText()), part);
        if (status != 200) {
            Files.deleteIfExists(part);
            return Optional.of(kind.folder + " download answered " + status);
        }
        String actual = sha256Of(part);
        if (!actual.equals(sha256)) {
            Files.deleteIfExists(part);
            return Optional.of("downloaded " + kind.folder + " file has sha256 " + actual + ", expected " + sha256);
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
