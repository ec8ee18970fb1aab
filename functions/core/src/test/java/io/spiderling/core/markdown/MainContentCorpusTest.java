package io.spiderling.core.markdown;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/**
 * The renderer's quality on the corpus of real-world-shaped pages in {@code markdown-corpus/}: each page has its
 * hand-written main text ({@code <case>.expected.txt}) and lines of its navigation, footer, comments and banners
 * ({@code <case>.boilerplate.txt}). The floors in {@code markdown-corpus-floors.csv} sit just under (kept) and over
 * (leak) what the renderer does now, so that a change of library or option that makes either worse fails here. Raise
 * them when the renderer gets better.
 */
class MainContentCorpusTest {

    private static final String FOLDER = "/markdown-corpus/";

    private final MainContent renderer = MainContent.create();

    @ParameterizedTest(name = "{0}: kept >= {1}, leak <= {2}")
    @CsvFileSource(resources = FOLDER + "markdown-corpus-floors.csv", numLinesToSkip = 1)
    void render_whenCorpusPage_keepsMainTextAndLeavesBoilerplateOut(String page, double minKept, double maxLeak) {
        byte[] html = resource(page + ".html");
        String expected = new String(resource(page + ".expected.txt"), StandardCharsets.UTF_8);
        String boilerplate = new String(resource(page + ".boilerplate.txt"), StandardCharsets.UTF_8);

        String markdown = renderer.render(html, "text/html", "https://corpus.example/" + page).orElseThrow().markdown();
        CorpusScore score = CorpusScore.of(expected, boilerplate.lines().toList(), MarkdownText.plain(markdown));

        String measured = String.format(Locale.ROOT, "%s: kept %.3f, leak %.3f", page, score.kept(), score.leak());
        System.out.println(measured);
        assertAll(() -> assertTrue(score.kept() >= minKept, measured + "; floor " + minKept + "\n" + markdown),
                () -> assertTrue(score.leak() <= maxLeak, measured + "; ceiling " + maxLeak + "\n" + markdown));
    }

    private static byte[] resource(String name) {
        try (InputStream in = MainContentCorpusTest.class.getResourceAsStream(FOLDER + name)) {
            if (in == null) {
                throw new IllegalStateException("no corpus file " + FOLDER + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
