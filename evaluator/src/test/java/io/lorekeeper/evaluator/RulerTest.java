package io.lorekeeper.evaluator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.lorekeeper.text.TokenCounter;

class RulerTest {

    @Test
    void generatesDeterministicItemsOfTheRequestedLengthWithEveryNeedleInPlace() {
        SharedData.require("novels");
        SharedData.require("ruler/wonderwords");
        Path data = SharedData.ROOT;
        List<EvalItem> items = Ruler.generate(data, Ruler.TASKS, 2000, 7, 2);
        assertThat(items).hasSize(10);
        assertThat(Ruler.generate(data, Ruler.TASKS, 2000, 7, 2)).isEqualTo(items);
        assertThat(Ruler.generate(data, Ruler.TASKS, 2000, 8, 2)).isNotEqualTo(items);
        for (EvalItem item : items) {
            String text = (String) item.document().get("text");
            assertThat(TokenCounter.count(text)).as(item.id()).isBetween(1900, 2300);
            item.evidence().forEach(needle -> assertThat(text).contains(needle));
            item.answers().forEach(answer -> assertThat(text).contains(answer));
            // the right answer scores 1 with RULER's string match
            assertThat(Metrics.rulerStringMatchAll(String.join(", ", item.answers()), item.answers()))
                    .isEqualTo(1.0);
        }
        EvalItem single = items.getFirst();
        assertThat(single.category()).isEqualTo("niah_single");
        assertThat(single.answers()).hasSize(1).allMatch(a -> a.matches("\\d{7}"));
        assertThat(single.question()).startsWith("What is the special magic number for ");
        EvalItem multikey = items.get(2);
        assertThat(multikey.evidence()).hasSize(4);
        assertThat(multikey.answers()).hasSize(1);
        assertThat(items.get(4).answers()).hasSize(4);
        EvalItem vt = items.get(8);
        assertThat(vt.category()).isEqualTo("vt");
        assertThat(vt.answers()).hasSize(5);
        String text = (String) vt.document().get("text");
        // the chain is in order: each assignment comes after the one it copies
        for (int i = 1; i < vt.answers().size(); i++) {
            assertThat(text.indexOf("VAR " + vt.answers().get(i) + " = "))
                    .isGreaterThan(text.indexOf("VAR " + vt.answers().get(i - 1) + " = "));
        }
        assertThatThrownBy(() -> Ruler.generate(data, List.of("nope"), 2000, 1, 1))
                .hasMessageContaining("unknown RULER task");
    }
}
