package io.spiderling.infra;

import io.spiderling.catalog.ConfigKey;
import io.spiderling.catalog.FunctionSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.ILayerVersion;
import software.amazon.awscdk.services.lambda.LayerVersion;
import software.constructs.Construct;

/**
 * The operator's growing lists (per-site rate overrides, the opt-out list) as files in a Lambda layer. They never go
 * in the environment: Lambda caps a function's environment at 4 KB, and these lists only grow. Lambda unpacks a
 * layer under {@code /opt}, so each file's key is set to its path there.
 */
public final class SiteLists extends Construct {

    /** Where the files sit inside the layer, and so under {@code /opt}. */
    static final String DIRECTORY = "spiderling";

    private final LayerVersion layer;
    private final Map<ConfigKey<?>, String> paths = new LinkedHashMap<>();

    /** @param files the file for each key that names one, e.g. {@code spiderling.fetch.opt-out-file} */
    public SiteLists(Construct scope, String id, Map<ConfigKey<?>, Path> files) {
        super(scope, id);
        Path staging = stage(files);
        layer = LayerVersion.Builder.create(this, "Layer")
                .description("Spiderling site lists: " + String.join(", ", paths.values()))
                .code(Code.fromAsset(staging.toString()))
                .build();
    }

    /** The layer holding the files. */
    public ILayerVersion layer() {
        return layer;
    }

    /** The path on Lambda of each key's file, in the order given. */
    public Map<ConfigKey<?>, String> paths() {
        return Collections.unmodifiableMap(paths);
    }

    /** Whether {@code function} reads any of the files, and so needs the layer. */
    public boolean neededBy(FunctionSpec function) {
        return paths.keySet().stream().anyMatch(function.configKeys()::contains);
    }

    /**
     * Copies the files into a fresh directory under fixed names derived from their keys, so two lists that happen to
     * share a file name cannot overwrite each other. CDK copies the directory into the cloud assembly while the
     * stack is built and hashes its content, so the temporary copy may go once the JVM exits.
     */
    private Path stage(Map<ConfigKey<?>, Path> files) {
        try {
            Path root = Files.createTempDirectory("spiderling-site-lists");
            Path directory = Files.createDirectory(root.resolve(DIRECTORY));
            root.toFile().deleteOnExit();
            directory.toFile().deleteOnExit();
            for (Map.Entry<ConfigKey<?>, Path> entry : files.entrySet()) {
                String name = fileName(entry.getKey());
                Path copy = Files.copy(entry.getValue(), directory.resolve(name));
                copy.toFile().deleteOnExit();
                paths.put(entry.getKey(), "/opt/" + DIRECTORY + "/" + name);
            }
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stage the site lists " + files.values(), e);
        }
    }

    /** {@code spiderling.fetch.rate-overrides-file} → {@code rate-overrides.txt}. */
    static String fileName(ConfigKey<?> key) {
        String last = key.name().substring(key.name().lastIndexOf('.') + 1);
        return Optional.of(last).filter(s -> s.endsWith("-file")).map(s -> s.substring(0, s.length() - 5))
                .orElse(last) + ".txt";
    }
}
