package io.spiderling.core.batch;

import io.spiderling.core.url.NormalizationResult.Accepted;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.RequestUrl;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The manifest ingest writes for a batch it accepted, which canonicalize plans: one URL per line, its key, and when
 * the spelling to request differs from the key, a tab and that spelling. Neither form can hold a tab: the URL parser
 * removes tabs, and the key keeps what it leaves.
 */
public final class PlannedManifest {

    private static final char SEPARATOR = '\t';

    private PlannedManifest() {}

    /** The manifest of {@code urls}, in their order. */
    public static byte[] write(List<Accepted> urls) {
        StringBuilder text = new StringBuilder(urls.size() * 64);
        for (Accepted url : urls) {
            text.append(url.url().value());
            if (!url.request().value().equals(url.url().value())) {
                text.append(SEPARATOR).append(url.request().value());
            }
            text.append('\n');
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The URLs of a manifest {@link #write} wrote; blank lines are skipped.
     *
     * @throws IllegalArgumentException for a line that holds no key, or a request that is no request URL
     */
    public static List<Accepted> read(byte[] manifest) {
        List<Accepted> urls = new ArrayList<>();
        new String(manifest, StandardCharsets.UTF_8).lines().filter(line -> !line.isBlank()).forEach(line -> {
            int tab = line.indexOf(SEPARATOR);
            String key = tab < 0 ? line : line.substring(0, tab);
            String request = tab < 0 ? line : line.substring(tab + 1);
            urls.add(new Accepted(NormalizedUrl.parse(key), RequestUrl.parse(request)));
        });
        return urls;
    }
}
