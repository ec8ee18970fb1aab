package io.spiderling.lambda.nativeimage;

import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;
import software.amazon.awssdk.checksums.SdkChecksum;
import software.amazon.awssdk.checksums.spi.ChecksumAlgorithm;

/**
 * The AWS SDK's checksum factory without its optional CRT paths, for native images only.
 *
 * <p>{@code ChecksumProvider} reaches for {@code software.amazon.awssdk.crt.checksums.*} when aws-crt is on the class
 * path and falls back otherwise. On the JVM the missing classes are simply never loaded; native-image (which Quarkus
 * runs with {@code --link-at-build-time}) must resolve every type a reachable method names, so it stops at
 * {@code CRC64NVME}. These substitutions state what the JVM does without aws-crt, so the image links and answers as the
 * JVM build does: CRC32C from the JDK or the SDK's own implementation, CRC64NVME and xxHash refused with the SDK's own
 * message. Adding aws-crt instead would put a 20 MB JNI library for checksums nobody here asks for into every
 * function.
 *
 * <p>Each method keeps the name and signature of the method it replaces, as GraalVM requires, and the class declares
 * nothing else (native-image refuses fields of a substitution class that are not aliases). It is only read by
 * native-image (the annotations come from a provided-scope dependency), never loaded on the JVM.
 */
@TargetClass(className = "software.amazon.awssdk.checksums.internal.ChecksumProvider")
final class Target_ChecksumProvider {

    private Target_ChecksumProvider() {}

    /** No CRT: {@code crc32cImplementation()} then uses the SDK's CRC32C, as it does on a JVM without aws-crt. */
    @Substitute
    static SdkChecksum createCrtCrc32C() {
        return null;
    }

    @Substitute
    static SdkChecksum crc64NvmeCrtImplementation() {
        throw new RuntimeException("Could not load software.amazon.awssdk.crt.checksums.CRC64NVME. Add dependency on"
                + " 'software.amazon.awssdk.crt:aws-crt' module to enable CRC64NVME feature.");
    }

    @Substitute
    static SdkChecksum crtXxHash(ChecksumAlgorithm algorithm) {
        throw new RuntimeException("Could not load software.amazon.awssdk.crt.checksums.XXHash for algorithm: "
                + algorithm.algorithmId() + ". Add dependency on 'software.amazon.awssdk.crt:aws-crt' module.");
    }
}
