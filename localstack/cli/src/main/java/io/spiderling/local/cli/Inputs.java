package io.spiderling.local.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/** The URLs to fetch: one per line of a file or of standard input; blank lines and lines starting with '#' skipped. */
final class Inputs {

    private Inputs() {}

    /** {@code file} "-" reads {@code stdin}. Every problem is a {@link CliException} naming the file. */
    static List<String> read(String file, InputStream stdin) {
        boolean fromStdin = "-".equals(file);
        String name = fromStdin ? "standard input" : file;
        byte[] bytes;
        try {
            if (fromStdin) {
                bytes = stdin.readAllBytes();
            } else {
                Path path = Path.of(file);
                if (Files.isDirectory(path)) {
                    throw new CliException(ExitCode.USAGE, file + " is a folder; give a file of URLs, one per line");
                }
                bytes = Files.readAllBytes(path);
            }
        } catch (NoSuchFileException e) {
            throw new CliException(ExitCode.USAGE, "no such file: " + file);
        } catch (AccessDeniedException e) {
            throw new CliException(ExitCode.USAGE, "cannot read " + file + ": permission denied");
        } catch (IOException e) {
            throw new CliException(ExitCode.USAGE, "cannot read " + name + ": " + e.getMessage());
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new CliException(ExitCode.USAGE, name + " is not UTF-8 text; give a file of URLs, one per line");
        }
        List<String> urls = lines(text);
        if (urls.isEmpty()) {
            throw new CliException(ExitCode.USAGE, name + " holds no URLs (one per line; blank lines and lines"
                    + " starting with '#' are skipped)");
        }
        return urls;
    }

    static List<String> lines(String text) {
        return text.lines().map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
    }
}
