package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.infra.FunctionArtifact.Packaging;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FunctionArtifactTest {

    @Test
    void inspect_whenZipHoldsNoBootstrap_isJvmOnTheChosenArchitecture() {
        FunctionArtifact artifact = FunctionArtifact.inspect(TestArtifacts.jvmZip());
        assertEquals(Packaging.JVM, artifact.packaging());
        assertEquals(Optional.empty(), artifact.nativeArchitecture());
        assertEquals(CpuArchitecture.ARM_64, artifact.architecture(CpuArchitecture.ARM_64));
        assertEquals(CpuArchitecture.X86_64, artifact.architecture(CpuArchitecture.X86_64));
    }

    @Test
    void inspect_whenBootstrapIsAnX86Executable_isNativeX86WhateverWasChosen() {
        FunctionArtifact artifact = FunctionArtifact.inspect(TestArtifacts.nativeZip(TestArtifacts.EM_X86_64));
        assertEquals(Packaging.NATIVE, artifact.packaging());
        assertEquals(CpuArchitecture.X86_64, artifact.architecture(CpuArchitecture.ARM_64));
    }

    @Test
    void inspect_whenBootstrapIsAnArm64Executable_isNativeArm64() {
        FunctionArtifact artifact = FunctionArtifact.inspect(TestArtifacts.nativeZip(TestArtifacts.EM_AARCH64));
        assertEquals(CpuArchitecture.ARM_64, artifact.architecture(CpuArchitecture.X86_64));
    }

    @Test
    void inspect_whenBootstrapIsForAnotherMachine_refusesIt() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> FunctionArtifact.inspect(TestArtifacts.nativeZip(0x28))); // EM_ARM, 32-bit
        assertTrue(e.getMessage().contains("bootstrap is not a little-endian ELF executable"), e.getMessage());
    }

    @Test
    void inspect_whenBootstrapIsAScript_refusesIt() {
        assertThrows(IllegalArgumentException.class,
                () -> FunctionArtifact.inspect(TestArtifacts.scriptBootstrapZip()));
    }

    @Test
    void inspect_whenFileMissing_saysHowToBuildIt() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> FunctionArtifact.inspect(Path.of("no/such/function.zip")));
        assertTrue(e.getMessage().contains("function.zip"), e.getMessage());
        assertTrue(e.getMessage().contains("./mvnw package"), e.getMessage());
    }

    @Test
    void inspect_whenFileIsNotAZip_saysSo() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> FunctionArtifact.inspect(TestArtifacts.textFile("not-a-zip", "hello")));
        assertTrue(e.getMessage().contains("is not a readable zip"), e.getMessage());
    }

    @Test
    void elfMachine_whenBigEndianHeader_isUnknown() {
        byte[] header = TestArtifacts.elfHeader(TestArtifacts.EM_X86_64);
        header[5] = 2; // ELFDATA2MSB
        assertEquals(Optional.empty(), FunctionArtifact.ElfHeader.machine(header));
    }
}
