package io.spiderling.core.markdown;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How well a rendering keeps a page's main text and leaves its boilerplate out, on normalized word tokens (letters and
 * digits, lower case; punctuation and Markdown syntax are not words).
 *
 * @param kept the share of the expected tokens found in the output, each output token matching at most one expected
 *     token (a multiset recall)
 * @param leak the share of boilerplate lines whose tokens appear in the output, in order and next to each other
 */
record CorpusScore(double kept, double leak) {

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

    static CorpusScore of(String expected, List<String> boilerplateLines, String output) {
        List<String> outputTokens = tokens(output);
        return new CorpusScore(kept(tokens(expected), outputTokens), leak(boilerplateLines, outputTokens));
    }

    static List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        Matcher matcher = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (matcher.find()) {
            tokens.add(matcher.group());
        }
        return tokens;
    }

    private static double kept(List<String> expected, List<String> output) {
        if (expected.isEmpty()) {
            return 1.0;
        }
        Map<String, Integer> available = new HashMap<>();
        output.forEach(token -> available.merge(token, 1, Integer::sum));
        int found = 0;
        for (String token : expected) {
            if (available.getOrDefault(token, 0) > 0) {
                available.merge(token, -1, Integer::sum);
                found++;
            }
        }
        return (double) found / expected.size();
    }

    private static double leak(List<String> lines, List<String> output) {
        List<List<String>> phrases = lines.stream().map(CorpusScore::tokens).filter(t -> !t.isEmpty()).toList();
        if (phrases.isEmpty()) {
            return 0.0;
        }
        long leaked = phrases.stream().filter(phrase -> Collections.indexOfSubList(output, phrase) >= 0).count();
        return (double) leaked / phrases.size();
    }
}
