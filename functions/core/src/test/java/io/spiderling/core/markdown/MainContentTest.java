package io.spiderling.core.markdown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MainContentTest {

    private static final String URL = "https://docs.example.org/guide/start.html";
    private static final String PARAGRAPHS = """
            <p>Readability keeps the part of a page that a reader came for, and it needs enough of that text to be
            sure of it, so every page in these tests has a few paragraphs of ordinary prose, with commas, like this.</p>
            <p>A second paragraph says more about the subject at hand, again with sentences long enough, commas, and
            words enough that the scoring sees an article here and not a menu, a footer or a list of links.</p>
            <p>A third paragraph closes the article, with a last sentence or two, so that the content is long enough
            to be chosen over the navigation around it, which is what the renderer is meant to leave out.</p>
            """;

    private final MainContent renderer = MainContent.create();

    private static String page(String lang, String title, String article) {
        return """
                <!doctype html>
                <html %s><head><meta charset="utf-8"><title>%s</title></head>
                <body>
                <nav class="menu"><ul><li><a href="/">Home</a></li><li><a href="/products">Products</a></li>
                <li><a href="/about">About us</a></li></ul></nav>
                <article><h1>%s</h1>
                %s
                %s
                </article>
                <footer class="footer"><p>Copyright 2026 Example Docs. All rights reserved.</p></footer>
                </body></html>
                """.formatted(lang, title, title, PARAGRAPHS, article);
    }

    private MarkdownPage render(String html) {
        return renderer.render(html.getBytes(StandardCharsets.UTF_8), "text/html; charset=utf-8", URL).orElseThrow();
    }

    @Test
    void render_whenPageHasHeadings_keepsThemAsAtxHeadings() {
        MarkdownPage page = render(page("lang=\"en\"", "Getting started", """
                <h2>Install the tool</h2><p>Download it, unpack it, and put it on the path, as with any other tool.</p>
                <h3>On Linux</h3><p>Use the package manager of the distribution, which keeps it up to date.</p>
                """));

        assertTrue(page.markdown().contains("## Install the tool\n"), page.markdown());
        assertTrue(page.markdown().contains("### On Linux\n"), page.markdown());
    }

    @Test
    void render_whenPageHasLists_keepsOrderedAndUnorderedLists() {
        MarkdownPage page = render(page("", "Lists", """
                <p>Before you start, check these things, one by one, in the order given here:</p>
                <ol><li>Open the settings page</li><li>Choose a region</li><li>Save the changes</li></ol>
                <p>The tool works with these formats, and reads each of them the same way:</p>
                <ul><li>Comma-separated values</li><li>JSON lines</li></ul>
                """));

        assertTrue(page.markdown().contains("1. Open the settings page\n2. Choose a region\n3. Save the changes"),
                page.markdown());
        assertTrue(page.markdown().contains("* Comma-separated values\n* JSON lines"), page.markdown());
    }

    @Test
    void render_whenLinksAndImagesAreRelative_makesThemAbsolute() {
        MarkdownPage page = render(page("", "Links", """
                <p>See the <a href="../reference/config.html#keys">configuration reference</a> and the
                <a href="//cdn.example.org/notes.txt">release notes</a> for the details of every key.</p>
                <p><img src="/img/diagram.png" alt="The pipeline"> The diagram shows the stages, one after another.</p>
                """));

        assertTrue(page.markdown().contains(
                "[configuration reference](https://docs.example.org/reference/config.html#keys)"), page.markdown());
        assertTrue(page.markdown().contains("[release notes](https://cdn.example.org/notes.txt)"), page.markdown());
        assertTrue(page.markdown().contains("![The pipeline](https://docs.example.org/img/diagram.png)"),
                page.markdown());
    }

    @Test
    void render_whenPageHasBaseHref_resolvesAgainstIt() {
        String html = page("", "Base", "<p>Read <a href=\"intro.html\">the introduction</a> first, then go on.</p>")
                .replace("<head>", "<head><base href=\"https://mirror.example.net/docs/\">");

        assertTrue(render(html).markdown().contains("[the introduction](https://mirror.example.net/docs/intro.html)"));
    }

    @Test
    void render_whenLinkIsJavascript_keepsTextWithoutAddress() {
        MarkdownPage page = render(page("", "Scripts", """
                <p>Press <a href="javascript:void(0)">this button</a> to open the dialog, then fill in the form.</p>
                """));

        assertTrue(page.markdown().contains("this button"), page.markdown());
        assertFalse(page.markdown().contains("javascript:"), page.markdown());
    }

    @Test
    void render_whenPageHasTable_writesGfmPipeTable() {
        MarkdownPage page = render(page("", "Limits", """
                <p>The limits below apply to every account, and can be raised on request, within reason.</p>
                <table><thead><tr><th>Resource</th><th>Limit</th></tr></thead>
                <tbody><tr><td>Requests per second</td><td>50</td></tr><tr><td>Body size</td><td>10 MB</td></tr>
                </tbody></table>
                """));

        String markdown = page.markdown();
        assertTrue(markdown.matches("(?s).*\\|\\s*Resource\\s*\\|\\s*Limit\\s*\\|\\n\\|[-:| ]+\\|\\n.*"), markdown);
        assertTrue(markdown.matches("(?s).*\\|\\s*Body size\\s*\\|\\s*10 MB\\s*\\|.*"), markdown);
    }

    @Test
    void render_whenCodeBlockDeclaresLanguage_writesFencedBlockWithIt() {
        MarkdownPage page = render(page("", "Code", """
                <p>Create the client once, and reuse it for every request, as in this example:</p>
                <pre><code class="language-java">Client client = Client.create();
                client.send(request);</code></pre>
                <p>The shell version is shorter, and does the same thing, with the command line tool:</p>
                <pre class="lang-bash">curl -s https://api.example.org/v1/items</pre>
                """));

        assertTrue(page.markdown().contains("```java\nClient client = Client.create();\nclient.send(request);\n```"),
                page.markdown());
        assertTrue(page.markdown().contains("```bash\ncurl -s https://api.example.org/v1/items\n```"),
                page.markdown());
    }

    @Test
    void render_whenCodeBlockHasNoLanguage_writesPlainFence() {
        MarkdownPage page = render(page("", "Code", """
                <p>The output looks like this, one line per item, in the order they were read:</p>
                <pre><code>item 1: ok
                item 2: ok</code></pre>
                """));

        assertTrue(page.markdown().contains("```\nitem 1: ok\nitem 2: ok\n```"), page.markdown());
    }

    @Test
    void render_whenPageHasNavigationAndFooter_leavesThemOut() {
        MarkdownPage page = render(page("", "Getting started", ""));

        assertTrue(page.markdown().contains("Readability keeps the part of a page"), page.markdown());
        assertFalse(page.markdown().contains("About us"), page.markdown());
        assertFalse(page.markdown().contains("All rights reserved"), page.markdown());
    }

    @Test
    void render_whenPageHasTitleAndLanguage_recordsThem() {
        MarkdownPage page = render(page("lang=\"en-us\"", "Getting started", ""));

        assertEquals(Optional.of("Getting started"), page.title());
        assertEquals(Optional.of("en-US"), page.language());
    }

    @Test
    void render_whenLanguageOnlyInMeta_readsContentLanguage() {
        String html = page("", "Prise en main", "").replace("<head>",
                "<head><meta http-equiv=\"Content-Language\" content=\"fr_CA, en\">");

        assertEquals(Optional.of("fr-CA"), render(html).language());
    }

    @Test
    void render_whenNoLanguageDeclared_hasNone() {
        assertEquals(Optional.empty(), render(page("lang=\"not a tag!\"", "Untitled", "")).language());
    }

    @ParameterizedTest
    @CsvSource({"zh_hant_tw, zh-Hant-TW", "EN, en", "de-ch, de-CH", "' pt-BR ', pt-BR"})
    void languageTag_whenWellFormed_isCanonical(String declared, String expected) {
        assertEquals(Optional.of(expected), MainContent.languageTag(declared));
    }

    @Test
    void render_whenBodyIsLatin1WithMetaCharset_decodesAsTheExtractorDoes() {
        String html = page("lang=\"fr\"", "Caf\u00e9 cr\u00e8me", "<p>Un caf\u00e9 cr\u00e8me, s'il vous pla\u00eet, "
                + "avec un croissant, et l'addition ensuite, merci beaucoup.</p>")
                .replace("<meta charset=\"utf-8\">", "<meta charset=\"iso-8859-1\">");
        byte[] body = html.getBytes(Charset.forName("ISO-8859-1"));

        MarkdownPage page = renderer.render(body, "text/html", URL).orElseThrow();

        assertTrue(page.markdown().contains("Un caf\u00e9 cr\u00e8me, s'il vous pla\u00eet"), page.markdown());
        assertEquals(Optional.of("Caf\u00e9 cr\u00e8me"), page.title());
    }

    @Test
    void render_whenContentTypeMissing_sniffsHtml() {
        byte[] body = page("", "Sniffed", "").getBytes(StandardCharsets.UTF_8);

        assertTrue(renderer.render(body, null, URL).isPresent());
    }

    @ParameterizedTest
    @CsvSource({"application/pdf", "application/json", "image/png", "text/plain; charset=utf-8"})
    void render_whenBodyIsNotHtml_isEmpty(String contentType) {
        byte[] body = page("", "Not HTML", "").getBytes(StandardCharsets.UTF_8);

        assertEquals(Optional.empty(), renderer.render(body, contentType, URL));
    }

    @Test
    void render_whenBodyIsNull_isEmpty() {
        assertEquals(Optional.empty(), renderer.render(null, "text/html", URL));
    }

    @Test
    void render_whenPageHasNoText_isEmpty() {
        byte[] body = "<html><head><title>Nothing</title></head><body><div></div></body></html>"
                .getBytes(StandardCharsets.UTF_8);

        assertEquals(Optional.empty(), renderer.render(body, "text/html", URL));
    }

    @Test
    void render_whenPageHasMoreElementsThanTheBound_isEmpty() {
        MainContent bounded = MainContent.builder().maxElements(20).build();
        byte[] body = page("", "Many", "").getBytes(StandardCharsets.UTF_8);

        assertEquals(Optional.empty(), bounded.render(body, "text/html", URL));
    }

    @Test
    void render_whenBodyIsLongerThanTheInputBound_rendersItsStart() {
        String start = page("", "Long", "");
        String html = start.replace("</body></html>", "") + "<p>The end of a very long page.</p>".repeat(2000);
        MainContent bounded = MainContent.builder().maxInputBytes(start.length()).build();

        MarkdownPage page = bounded.render(html.getBytes(StandardCharsets.UTF_8), "text/html", URL).orElseThrow();

        assertTrue(page.markdown().contains("A third paragraph closes the article"), page.markdown());
        assertFalse(page.markdown().contains("The end of a very long page"), page.markdown());
    }

    @Test
    void render_whenMarkdownIsLongerThanTheBound_cutsAtALineBreak() {
        MainContent bounded = MainContent.builder().maxMarkdownChars(300).build();
        byte[] body = page("", "Cut", "").getBytes(StandardCharsets.UTF_8);

        String markdown = bounded.render(body, "text/html", URL).orElseThrow().markdown();

        assertTrue(markdown.length() <= 300, markdown);
        assertTrue(markdown.endsWith("\n"), markdown);
    }

    @Test
    void render_whenNestingIsVeryDeep_doesNotThrow() {
        String html = "<html><body>" + "<div>".repeat(20_000) + "deep" + "</div>".repeat(20_000) + "</body></html>";

        Optional<MarkdownPage> page = renderer.render(html.getBytes(StandardCharsets.UTF_8), "text/html", URL);

        assertTrue(page.isEmpty() || page.get().markdown().contains("deep"));
    }

    @Test
    void render_whenCalledTwice_givesTheSameMarkdown() {
        byte[] body = page("lang=en", "Twice", "").getBytes(StandardCharsets.UTF_8);

        assertEquals(renderer.render(body, "text/html", URL), renderer.render(body, "text/html", URL));
    }
}
