package io.lorekeeper.evaluator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** What the LLM judge is shown as the reference, and which items it grades. */
class GraderTest {

    @Test
    void theReferenceListsGoldAnswersOrSaysTheQuestionHasNoAnswer() {
        Map<String, Object> doc = Map.of("title", "t", "text", "x");
        EvalItem two = new EvalItem(
                "q", "hotpotqa", "d", doc, "q?", List.of("Paris", "the city of Paris"), null, null, null, null);
        assertThat(Grader.reference(two)).isEqualTo("- Paris\n- the city of Paris");
        EvalItem adversarial = new EvalItem("q", "locomo", "d", doc, "q?", List.of(""), null, null, null, "5");
        assertThat(Grader.applies(adversarial)).isTrue();
        assertThat(Grader.reference(adversarial)).isEqualTo(Grader.UNANSWERABLE).contains("not available");
        assertThat(Grader.applies(
                        new EvalItem("q", "jsonl", "d", doc, "q?", List.of(), List.of("a", "b"), 0, null, null)))
                .isFalse();
        assertThat(Grader.applies(
                        new EvalItem("q", "ruler", "d", doc, "q?", List.of("1234"), null, null, null, "niah_single")))
                .isFalse();
    }
}
