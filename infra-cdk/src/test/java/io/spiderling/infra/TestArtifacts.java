package io.spiderling.infra;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** Tiny stand-ins for Quarkus's function.zip, so the stack's tests need no function build. */
final class TestArtifacts {

    /** ELF {@code e_machine} values, as in the System V ABI. */
    static final int EM_X86_64 = 0x3E;
    static final int EM_AARCH64 = 0xB7;

    private TestArtifacts() {}

    /** A JVM build: classes and a jar under lib/, no bootstrap. */
    static Path jvmZip() {
        return zip("jvm-function", "io/spiderling/Handler.class", new byte[] {(byte) 0xCA, (byte) 0xFE},
                "lib/example.jar", new byte[] {'P', 'K'});
    }

    /** A native build: {@code bootstrap} starting with a 64-bit little-endian ELF header for {@code machine}. */
    static Path nativeZip(int machine) {
        return zip("native-function", "bootstrap", elfHeader(machine));
    }

    /** A zip whose bootstrap is a shell script, which Lambda's provided runtime could run but we cannot inspect. */
    static Path scriptBootstrapZip() {
        return zip("script-function", "bootstrap", "#!/bin/sh\nexec ./runner\n".getBytes(StandardCharsets.US_ASCII));
    }

    /** The first 64 bytes of an executable's ELF header: magic, 64-bit, little-endian, ET_EXEC, the machine. */
    static byte[] elfHeader(int machine) {
        byte[] header = new byte[64];
        header[0] = 0x7F;
        header[1] = 'E';
        header[2] = 'L';
        header[3] = 'F';
        header[4] = 2; // ELFCLASS64
        header[5] = 1; // ELFDATA2LSB
        header[6] = 1; // EV_CURRENT
        header[16] = 2; // ET_EXEC
        header[18] = (byte) (machine & 0xFF);
        header[19] = (byte) (machine >>> 8);
        header[20] = 1; // e_version
        return header;
    }

    static Path textFile(String prefix, String text) {
        try {
            Path file = Files.createTempFile(prefix, ".txt");
            file.toFile().deleteOnExit();
            return Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @param entries name, bytes, name, bytes, … */
    private static Path zip(String prefix, Object... entries) {
        try {
            Path zip = Files.createTempFile(prefix, ".zip");
            zip.toFile().deleteOnExit();
            try (OutputStream out = Files.newOutputStream(zip); ZipOutputStream zipOut = new ZipOutputStream(out)) {
                for (int i = 0; i < entries.length; i += 2) {
                    zipOut.putNextEntry(new ZipEntry((String) entries[i]));
                    zipOut.write((byte[]) entries[i + 1]);
                    zipOut.closeEntry();
                }
            }
            return zip;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
