package io.spiderling.core.markdown;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CorpusScoreTest {

    @Test
    void of_whenOutputHasEveryExpectedWord_keepsAll() {
        assertEquals(1.0, CorpusScore.of("The bridge, rebuilt.", List.of(), "# The Bridge\n\n**rebuilt**").kept());
    }

    @Test
    void of_whenExpectedWordRepeats_countsEachOutputWordOnce() {
        assertEquals(4.0 / 6, CorpusScore.of("to be or not to be", List.of(), "to be or not").kept(), 1e-9);
    }

    @Test
    void of_whenBoilerplateLineAppearsInOrder_countsItAsLeaked() {
        CorpusScore score = CorpusScore.of("", List.of("Privacy notice", "Contact the newsroom", " "),
                "Read our privacy notice. Contact us at the newsroom.");

        assertEquals(0.5, score.leak(), 1e-9);
    }
}
