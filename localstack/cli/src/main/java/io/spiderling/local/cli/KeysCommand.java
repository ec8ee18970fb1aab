package io.spiderling.local.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spiderling.core.signing.KeyDirectory;
import io.spiderling.core.signing.KeyRing;
import io.spiderling.core.signing.SigningKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code spiderling keys new|directory}: the Web Bot Auth signing keys (ADR 21, docs/signing.md). {@code new} creates
 * the key set or adds the next key of a rotation; {@code directory} writes the public directory for a user to host.
 * Neither ever prints private material: a key is named by its thumbprint.
 */
@Command(name = "keys", mixinStandardHelpOptions = true,
        description = "Web Bot Auth signing keys: create or rotate them, and write their public directory"
                + " (docs/signing.md).",
        subcommands = {KeysCommand.New.class, KeysCommand.Directory.class, CommandLine.HelpCommand.class})
final class KeysCommand implements Runnable {

    static final String DEFAULT_FILE = ".spiderling/signing-keys.json";
    /** A rotation's new key starts this long after it is added, unless told otherwise: any directory cache by then. */
    static final Duration DEFAULT_LEAD = Duration.ofDays(1);

    @ParentCommand
    SpiderlingCli parent;

    @Override
    public void run() {
        new CommandLine(this).usage(parent.io().err());
    }

    /** {@code keys new}: a new Ed25519 key, alone in a new file or added to the existing set. */
    @Command(name = "new", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Create the signing key set, or add the next key of a rotation to it. Prints the new key's"
                    + " thumbprint (its keyid) and what to do next; never the private key.",
                    "Added to an existing set, the new key starts signing after --not-before (default: a day from"
                            + " now), so the directories sites cached meanwhile already list it."})
    static final class New implements Callable<Integer> {

        @ParentCommand
        KeysCommand keys;

        @Option(names = "--keys", paramLabel = "FILE", defaultValue = DEFAULT_FILE,
                description = "The key set (a JWKS of private keys; default: ${DEFAULT-VALUE}). Created with mode 600"
                        + " where the file system has modes.")
        Path file;

        @Option(names = "--not-before", paramLabel = "TIME", description = "When the key starts signing (its nbf):"
                + " an ISO-8601 instant such as 2026-12-01T00:00:00Z, or a date (midnight UTC). Default: at once for"
                + " the first key, a day from now for a rotation's.")
        String notBefore;

        @Option(names = "--expires", paramLabel = "TIME", description = "When the key stops signing and leaves the"
                + " directory (its exp): an instant or a date. Default: never.")
        String expires;

        @Option(names = "--valid-for", paramLabel = "DURATION", description = "Instead of --expires: how long after"
                + " its start the key expires, e.g. 90d, 12h or P90D.")
        String validFor;

        @Override
        public Integer call() {
            SpiderlingCli.Io io = keys.parent.io();
            Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            if (expires != null && validFor != null) {
                throw new CliException(ExitCode.USAGE, "give --expires or --valid-for, not both");
            }
            Optional<String> existing = read(file);
            Optional<KeyRing> ring = existing.map(text -> parse(file, text));
            boolean rotation = ring.isPresent();
            Optional<Instant> start = notBefore != null ? Optional.of(instant("--not-before", notBefore))
                    : rotation ? Optional.of(now.plus(DEFAULT_LEAD)) : Optional.empty();
            Optional<Instant> end = expires != null ? Optional.of(instant("--expires", expires))
                    : Optional.ofNullable(validFor).map(v -> start.orElse(now).plus(duration(v)));
            if (end.isPresent() && !end.get().isAfter(start.orElse(now))) {
                throw new CliException(ExitCode.USAGE, "the key would expire (" + end.get() + ") before it starts ("
                        + start.orElse(now) + ")");
            }
            ObjectNode jwk = KeyRing.newPrivateJwk(start, end);
            String text;
            try {
                text = KeyRing.withKey(existing, jwk);
            } catch (IllegalArgumentException e) {
                throw new CliException(ExitCode.USAGE, file + ": " + e.getMessage(), e);
            }
            boolean privateMode = writePrivate(file, text);
            String kid = jwk.get("kid").asText();
            KeyRing after = KeyRing.parse(text);
            var out = io.out();
            out.printf("%s key %s to %s (%d key%s%s)%n", rotation ? "Added" : "Created", kid, file,
                    after.all().size(), after.all().size() == 1 ? "" : "s", privateMode ? ", mode 600" : "");
            out.printf("  signs from %s until %s%n", start.map(Instant::toString).orElse("now"),
                    end.map(Instant::toString).orElse("it is given an exp (none yet)"));
            if (start.isPresent() && !start.get().isAfter(now) && rotation) {
                out.println("  It signs at once: sites that cached the directory without it reject its signatures"
                        + " until they fetch it again.");
            }
            out.println("Next:");
            out.printf("  1. Publish the directory: the API serves it at %s once the stack has the keys; to host it"
                    + " yourself, ./spiderling keys directory --keys %s%n", KeyDirectory.WELL_KNOWN_PATH, file);
            out.printf("  2. Locally: ./spiderling fetch --config spiderling.signing.enabled=true --config"
                    + " spiderling.signing.agent=<directory URL> --config spiderling.signing.keys-file=%s FILE%n", file);
            out.printf("     On AWS: aws secretsmanager put-secret-value --secret-id <signing-keys secret ARN>"
                    + " --secret-string file://%s%n", file);
            if (rotation) {
                out.printf("  3. Retire the old key%s: give it an \"exp\" in epoch seconds after the new key starts"
                        + " (%d), e.g. \"exp\": %d a day later; it stops signing and leaves the directory then.%n",
                        after.all().size() > 2 ? "s" : "", start.orElse(now).getEpochSecond(),
                        start.orElse(now).plus(Duration.ofDays(1)).getEpochSecond());
            }
            out.println("Keep the file secret: it holds the private keys. docs/signing.md says more.");
            return ExitCode.OK.code();
        }
    }

    /** {@code keys directory}: the public half of the key set, as the file a site fetches. */
    @Command(name = "directory", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Write the public key directory (no private key) to DIR/.well-known/"
                    + "http-message-signatures-directory, to host at that path of a site of yours with the media type"
                    + " " + KeyDirectory.MEDIA_TYPE + ".",
                    "A static file cannot carry the response signatures the directory draft asks for; the API's own"
                            + " route does (docs/signing.md)."})
    static final class Directory implements Callable<Integer> {

        @ParentCommand
        KeysCommand keys;

        @Option(names = "--keys", paramLabel = "FILE", defaultValue = DEFAULT_FILE,
                description = "The key set (default: ${DEFAULT-VALUE}).")
        Path file;

        @Option(names = "--out", paramLabel = "DIR", defaultValue = ".spiderling/directory",
                description = "Where to write .well-known/http-message-signatures-directory (default:"
                        + " ${DEFAULT-VALUE}).")
        Path out;

        @Override
        public Integer call() {
            SpiderlingCli.Io io = keys.parent.io();
            Instant now = Instant.now();
            String text = read(file).orElseThrow(() -> new CliException(ExitCode.USAGE, "no key set at " + file
                    + "; ./spiderling keys new creates one"));
            KeyRing ring = parse(file, text);
            List<SigningKey> published = ring.published(now);
            if (published.isEmpty()) {
                throw new CliException(ExitCode.USAGE, "every key of " + file + " has expired; ./spiderling keys new"
                        + " adds one");
            }
            Path target = out.resolve(KeyDirectory.WELL_KNOWN_PATH.substring(1));
            try {
                Files.createDirectories(target.getParent());
                Path temp = Files.createTempFile(target.getParent(), ".directory", ".tmp");
                Files.writeString(temp, new KeyDirectory(() -> ring, Duration.ZERO).json(now) + "\n");
                move(temp, target);
            } catch (IOException e) {
                throw new CliException(ExitCode.UNAVAILABLE, "could not write " + target + ": " + e.getMessage(), e);
            }
            var o = io.out();
            o.printf("Wrote %s: %d key%s (%s)%n", target, published.size(), published.size() == 1 ? "" : "s",
                    String.join(", ", published.stream().map(SigningKey::keyId).toList()));
            o.printf("Host it at https://<your host>%s with Content-Type %s, e.g.%n", KeyDirectory.WELL_KNOWN_PATH,
                    KeyDirectory.MEDIA_TYPE);
            o.printf("  nginx: location = %s { default_type %s; add_header Cache-Control \"max-age=3600\"; }%n",
                    KeyDirectory.WELL_KNOWN_PATH, KeyDirectory.MEDIA_TYPE);
            o.printf("  S3:    aws s3 cp %s s3://<bucket>%s --content-type %s --cache-control max-age=3600%n", target,
                    KeyDirectory.WELL_KNOWN_PATH, KeyDirectory.MEDIA_TYPE);
            o.println("and set spiderling.signing.agent to that URL. A static file carries no response signature"
                    + " (the directory draft asks for one); the API's route does. Write it again after each"
                    + " keys new, and when a key expires.");
            return ExitCode.OK.code();
        }
    }

    private static Optional<String> read(Path file) {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new CliException(ExitCode.UNAVAILABLE, "could not read " + file + ": " + e.getMessage(), e);
        }
    }

    private static KeyRing parse(Path file, String text) {
        try {
            return KeyRing.parse(text);
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCode.USAGE, file + " is not a usable key set: " + e.getMessage(), e);
        }
    }

    /**
     * Writes the key set whole (a new file moved over the old), created owner-only where the file system has POSIX
     * modes. Returns whether it did.
     */
    private static boolean writePrivate(Path file, String text) {
        Path dir = file.toAbsolutePath().getParent();
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        try {
            Files.createDirectories(dir);
            Path temp = posix
                    ? Files.createTempFile(dir, ".signing-keys", ".tmp",
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                    : Files.createTempFile(dir, ".signing-keys", ".tmp");
            Files.writeString(temp, text, StandardCharsets.UTF_8);
            move(temp, file);
            return posix;
        } catch (IOException e) {
            throw new CliException(ExitCode.UNAVAILABLE, "could not write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void move(Path temp, Path target) throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** An ISO-8601 instant, or a date taken as its midnight UTC. */
    static Instant instant(String option, String value) {
        try {
            return Instant.parse(value).truncatedTo(ChronoUnit.SECONDS);
        } catch (DateTimeParseException notInstant) {
            try {
                return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
            } catch (DateTimeParseException notDate) {
                throw new CliException(ExitCode.USAGE, option + " takes an instant such as 2026-12-01T00:00:00Z or a"
                        + " date such as 2026-12-01; was " + value);
            }
        }
    }

    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)([dhm])");

    /** {@code 90d}, {@code 12h}, {@code 30m}, or ISO-8601 ({@code P90D}, {@code PT12H}). */
    static Duration duration(String value) {
        Matcher brief = SHORT_DURATION.matcher(value.toLowerCase(Locale.ROOT));
        try {
            if (brief.matches()) {
                long n = Long.parseLong(brief.group(1));
                return switch (brief.group(2)) {
                    case "d" -> Duration.ofDays(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofMinutes(n);
                };
            }
            Duration parsed = Duration.parse(value);
            if (parsed.isNegative() || parsed.isZero()) {
                throw new DateTimeParseException("not positive", value, 0);
            }
            return parsed;
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new CliException(ExitCode.USAGE, "--valid-for takes a duration such as 90d, 12h, 30m or P90D; was "
                    + value);
        }
    }
}
