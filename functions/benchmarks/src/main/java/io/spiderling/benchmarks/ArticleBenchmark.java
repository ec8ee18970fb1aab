package io.spiderling.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spiderling.core.markdown.MainContent;
import io.spiderling.core.markdown.MarkdownPage;
import io.spiderling.core.markdown.MarkdownText;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Scores {@link MainContent} on the article extraction benchmark of Zyte (scrapinghub/article-extraction-benchmark):
 * 181 news and blog pages, saved as gzipped UTF-8 HTML, with the article body of each written down by hand in
 * {@code ground-truth.json}. The data is not part of this project; pass the folder of a clone of that repository.
 *
 * <p>The measure is the one that benchmark describes and publishes its table with, written here from its description:
 * each text is cut into word tokens (runs of letters, digits and underscores, case kept), the tokens into overlapping
 * shingles of four (a text of fewer tokens is one shingle), and the two multisets of shingles are compared page by
 * page. A page's true positives, false positives and false negatives are divided by their sum, so that a long page
 * weighs no more than a short one; precision and recall are averaged over the pages where they are defined, and F1 is
 * the harmonic mean of the two averages. The spread is the standard deviation over 1,000 bootstrap resamples of the
 * pages, with a fixed seed. Accuracy is the share of pages whose token list is exactly the truth's.
 *
 * <p>Each page is scored twice: on the Markdown's plain text ({@link MarkdownText#plain}), the fair comparison with
 * the text extractors of the published table; and on the Markdown as it is, where the link targets and image
 * addresses count as extra words.
 *
 * <p>{@code --predictions <file>} also writes the plain texts in the benchmark's own output format, so that its
 * {@code evaluate.py} can check this measure.
 *
 * <pre>{@code
 * java -cp functions/benchmarks/target/benchmarks.jar io.spiderling.benchmarks.ArticleBenchmark <folder>
 * }</pre>
 */
public final class ArticleBenchmark {

    private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}_]+");
    private static final int SHINGLE = 4;
    private static final int RESAMPLES = 1000;
    private static final long SEED = 20_191_101L;

    private ArticleBenchmark() {}

    /** One page's counts, each divided by their sum. */
    record Counts(double tp, double fp, double fn) {

        Optional<Double> precision() {
            if (tp + fp == 0) {
                return Optional.empty();
            }
            return Optional.of(fp == 0 && fn == 0 ? 1.0 : tp / (tp + fp));
        }

        Optional<Double> recall() {
            if (tp + fn == 0) {
                return Optional.empty();
            }
            return Optional.of(fp == 0 && fn == 0 ? 1.0 : tp / (tp + fn));
        }
    }

    record Scores(double f1, double precision, double recall) {

        static Scores of(List<Counts> pages) {
            double precision = pages.stream().flatMap(c -> c.precision().stream()).mapToDouble(d -> d).average()
                    .orElse(0);
            double recall = pages.stream().flatMap(c -> c.recall().stream()).mapToDouble(d -> d).average().orElse(0);
            double f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall);
            return new Scores(f1, precision, recall);
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1 && !(args.length == 3 && args[1].equals("--predictions"))) {
            System.err.println(
                    "usage: ArticleBenchmark <folder of article-extraction-benchmark> [--predictions <file>]");
            System.exit(2);
        }
        Path folder = Path.of(args[0]);
        ObjectMapper json = new ObjectMapper();
        JsonNode truth = json.readTree(folder.resolve("ground-truth.json").toFile());
        ObjectNode predictions = json.createObjectNode();
        MainContent renderer = MainContent.create();

        List<Counts> plain = new ArrayList<>();
        List<Counts> markdown = new ArrayList<>();
        List<Boolean> plainExact = new ArrayList<>();
        List<Long> nanos = new ArrayList<>();
        int empty = 0;
        for (Map.Entry<String, JsonNode> item : truth.properties()) {
            byte[] html = gunzip(folder.resolve("html").resolve(item.getKey() + ".html.gz"));
            String url = item.getValue().path("url").asText("");
            String expected = item.getValue().path("articleBody").asText("");
            long start = System.nanoTime();
            Optional<MarkdownPage> page = renderer.render(html, "text/html; charset=utf-8", url);
            nanos.add(System.nanoTime() - start);
            String md = page.map(MarkdownPage::markdown).orElse("");
            String text = page.map(p -> MarkdownText.plain(p.markdown())).orElse("");
            empty += page.isEmpty() ? 1 : 0;
            plain.add(compare(expected, text));
            markdown.add(compare(expected, md));
            plainExact.add(tokens(expected).equals(tokens(text)));
            predictions.putObject(item.getKey()).put("articleBody", text);
        }
        if (args.length == 3) {
            // the benchmark's own output format, for its evaluate.py to check this measure against
            json.writerWithDefaultPrettyPrinter().writeValue(Path.of(args[2]).toFile(), predictions);
        }

        System.out.printf(Locale.ROOT, "pages %d, no Markdown for %d; render time median %.1f ms, mean %.1f ms, "
                + "max %.1f ms (one JVM, first pages included)%n", plain.size(), empty, median(nanos) / 1e6,
                nanos.stream().mapToLong(n -> n).average().orElse(0) / 1e6,
                nanos.stream().mapToLong(n -> n).max().orElse(0) / 1e6);
        System.out.printf(Locale.ROOT, "%-26s %-15s %-15s %-15s %s%n", "", "F1", "precision", "recall", "accuracy");
        print("markdown, as plain text", plain, plainExact);
        print("markdown, as written", markdown, null);
    }

    static Counts compare(String truth, String prediction) {
        Map<List<String>, Integer> expected = shingles(truth);
        Map<List<String>, Integer> predicted = shingles(prediction);
        Set<List<String>> keys = new HashSet<>(expected.keySet());
        keys.addAll(predicted.keySet());
        double tp = 0;
        double fp = 0;
        double fn = 0;
        for (List<String> key : keys) {
            int e = expected.getOrDefault(key, 0);
            int p = predicted.getOrDefault(key, 0);
            tp += Math.min(e, p);
            fp += Math.max(0, p - e);
            fn += Math.max(0, e - p);
        }
        double sum = tp + fp + fn;
        return sum == 0 ? new Counts(0, 0, 0) : new Counts(tp / sum, fp / sum, fn / sum);
    }

    static List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        Matcher matcher = TOKEN.matcher(text);
        while (matcher.find()) {
            tokens.add(matcher.group());
        }
        return tokens;
    }

    private static Map<List<String>, Integer> shingles(String text) {
        List<String> tokens = tokens(text);
        Map<List<String>, Integer> shingles = new HashMap<>();
        if (tokens.isEmpty()) {
            return shingles;
        }
        for (int i = 0; i < Math.max(1, tokens.size() - SHINGLE + 1); i++) {
            shingles.merge(List.copyOf(tokens.subList(i, Math.min(tokens.size(), i + SHINGLE))), 1, Integer::sum);
        }
        return shingles;
    }

    private static void print(String name, List<Counts> pages, List<Boolean> exact) {
        Scores scores = Scores.of(pages);
        Random random = new Random(SEED);
        List<Scores> resampled = new ArrayList<>();
        List<Double> accuracies = new ArrayList<>();
        for (int r = 0; r < RESAMPLES; r++) {
            List<Counts> sample = new ArrayList<>();
            int hits = 0;
            for (int i = 0; i < pages.size(); i++) {
                int pick = random.nextInt(pages.size());
                sample.add(pages.get(pick));
                hits += exact != null && exact.get(pick) ? 1 : 0;
            }
            resampled.add(Scores.of(sample));
            accuracies.add((double) hits / pages.size());
        }
        String accuracy = exact == null ? "-" : String.format(Locale.ROOT, "%.3f ± %.3f",
                exact.stream().filter(b -> b).count() / (double) exact.size(), spread(accuracies, d -> d));
        System.out.printf(Locale.ROOT, "%-26s %.3f ± %.3f  %.3f ± %.3f  %.3f ± %.3f  %s%n", name,
                scores.f1(), spread(resampled, Scores::f1), scores.precision(), spread(resampled, Scores::precision),
                scores.recall(), spread(resampled, Scores::recall), accuracy);
    }

    /** The sample standard deviation of one measure over the resamples. */
    private static <T> double spread(List<T> samples, Function<T, Double> measure) {
        double mean = samples.stream().mapToDouble(measure::apply).average().orElse(0);
        double squares = samples.stream().mapToDouble(s -> Math.pow(measure.apply(s) - mean, 2)).sum();
        return Math.sqrt(squares / (samples.size() - 1));
    }

    private static double median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
    }

    private static byte[] gunzip(Path file) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return in.readAllBytes();
        }
    }
}
