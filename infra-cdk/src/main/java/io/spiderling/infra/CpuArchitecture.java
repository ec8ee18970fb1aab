package io.spiderling.infra;

/** The two CPUs Lambda offers. Kept apart from CDK's {@code Architecture} so reading an artifact needs no jsii. */
public enum CpuArchitecture {
    X86_64,
    ARM_64
}
