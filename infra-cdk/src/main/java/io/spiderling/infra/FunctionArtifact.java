package io.spiderling.infra;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Quarkus's {@code target/function.zip}, inspected once: a native build carries the executable as {@code bootstrap}
 * at the root of the zip (Lambda's custom runtime starts it), a JVM build carries classes and {@code lib/}. A native
 * build's architecture is read from the executable itself, so the function can never be declared for a CPU the
 * binary was not built for.
 *
 * @param zip the file, as given
 * @param packaging how the functions were built
 * @param nativeArchitecture the CPU the {@code bootstrap} executable is for; empty for a JVM build
 */
public record FunctionArtifact(Path zip, Packaging packaging, Optional<CpuArchitecture> nativeArchitecture) {

    /** Lambda's custom runtimes start this file from the root of the code. */
    static final String BOOTSTRAP = "bootstrap";

    /** How the functions were built. The stack chooses runtime, handler and SnapStart from it. */
    public enum Packaging {
        /** A GraalVM/Mandrel executable for the {@code provided.al2023} runtime. */
        NATIVE,
        /** Classes and jars for Lambda's {@code java21} runtime. */
        JVM
    }

    public FunctionArtifact {
        Objects.requireNonNull(zip, "zip");
        Objects.requireNonNull(packaging, "packaging");
        if ((packaging == Packaging.NATIVE) != nativeArchitecture.isPresent()) {
            throw new IllegalArgumentException("a native artifact has an architecture, a JVM artifact none");
        }
    }

    /**
     * Reads {@code zip}: native if it holds {@code bootstrap}, then that file's ELF header gives the architecture.
     *
     * @throws IllegalArgumentException if the file is missing, not a zip, or holds a {@code bootstrap} that is not a
     *     Linux executable for x86_64 or arm64
     */
    public static FunctionArtifact inspect(Path zip) {
        if (!Files.isRegularFile(zip)) {
            throw new IllegalArgumentException("no function artifact at " + zip.toAbsolutePath()
                    + "; build it with ./mvnw package -pl functions/lambdas -am (target/function.zip)");
        }
        try (ZipFile file = new ZipFile(zip.toFile())) {
            ZipEntry bootstrap = file.getEntry(BOOTSTRAP);
            if (bootstrap == null) {
                return new FunctionArtifact(zip, Packaging.JVM, Optional.empty());
            }
            try (InputStream in = file.getInputStream(bootstrap)) {
                byte[] header = in.readNBytes(ElfHeader.LENGTH);
                CpuArchitecture architecture = ElfHeader.machine(header).orElseThrow(() ->
                        new IllegalArgumentException(zip + ": " + BOOTSTRAP + " is not a little-endian ELF executable"
                                + " for x86_64 or arm64 (Lambda runs no other)"));
                return new FunctionArtifact(zip, Packaging.NATIVE, Optional.of(architecture));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(zip + " is not a readable zip: " + e.getMessage(), e);
        }
    }

    /**
     * The architecture the functions run on: the executable's for a native build; for a JVM build, where bytecode
     * runs anywhere, {@code jvmChoice}.
     */
    public CpuArchitecture architecture(CpuArchitecture jvmChoice) {
        return nativeArchitecture.orElse(jvmChoice);
    }

    /**
     * Just enough of the ELF header (the System V ABI's {@code Elf64_Ehdr}) to tell the CPU: the magic, the data
     * encoding and {@code e_machine}.
     */
    static final class ElfHeader {

        /** Bytes up to and including {@code e_machine}. */
        static final int LENGTH = 20;

        private static final int EI_DATA = 5;
        private static final int LITTLE_ENDIAN = 1;
        private static final int E_MACHINE = 18;
        private static final int EM_X86_64 = 0x3E;
        private static final int EM_AARCH64 = 0xB7;

        private ElfHeader() {}

        static Optional<CpuArchitecture> machine(byte[] header) {
            if (header.length < LENGTH || header[0] != 0x7F || header[1] != 'E' || header[2] != 'L'
                    || header[3] != 'F' || header[EI_DATA] != LITTLE_ENDIAN) {
                return Optional.empty();
            }
            int machine = (header[E_MACHINE] & 0xFF) | (header[E_MACHINE + 1] & 0xFF) << 8;
            return switch (machine) {
                case EM_X86_64 -> Optional.of(CpuArchitecture.X86_64);
                case EM_AARCH64 -> Optional.of(CpuArchitecture.ARM_64);
                default -> Optional.empty();
            };
        }
    }
}
