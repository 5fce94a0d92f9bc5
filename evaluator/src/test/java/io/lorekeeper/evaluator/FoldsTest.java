package io.lorekeeper.evaluator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class FoldsTest {

    @Test
    void locomoIsSplitByConversation() {
        assertThat(Folds.of("locomo", "conv-26/1")).isEqualTo("conv-26");
        assertThat(Folds.of("locomo", "conv-26/152")).isEqualTo("conv-26");
        assertThat(Folds.of("locomo", "conv-41/7")).isEqualTo("conv-41");
        assertThat(Folds.names("locomo", List.of("conv-41/1", "conv-26/2", "conv-30/9", "conv-26/1")))
                .containsExactly("conv-26", "conv-30", "conv-41");
    }

    @Test
    void otherDatasetsAreSplitByQuestionIntoFiveFixedFolds() {
        // CRC-32 is a fixed function: the fold of an id is the same on every machine and in every run
        assertThat(Folds.of("hotpotqa", "5a8b57f25542995d1e6f1371")).isEqualTo("fold-3");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            ids.add("5a" + Integer.toHexString(i * 7919) + "q" + i);
        }
        Map<String, Integer> sizes = new HashMap<>();
        for (String id : ids) {
            String fold = Folds.of("hotpotqa", id);
            assertThat(Folds.of("hotpotqa", id)).isEqualTo(fold); // deterministic
            sizes.merge(fold, 1, Integer::sum);
        }
        // every item in exactly one of the five folds (disjoint, covering), none of them starved
        assertThat(sizes.keySet()).containsExactlyInAnyOrder("fold-0", "fold-1", "fold-2", "fold-3", "fold-4");
        assertThat(sizes.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(ids.size());
        assertThat(sizes.values()).allSatisfy(n -> assertThat(n).isBetween(60, 140));
        assertThat(Folds.names("hotpotqa", ids)).containsExactly("fold-0", "fold-1", "fold-2", "fold-3", "fold-4");
    }

    @Test
    void laterRoundsSplitTheSameQuestionsOtherwiseAndConversationsNever() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            ids.add("5a" + Integer.toHexString(i * 7919) + "q" + i);
        }
        assertThat(Folds.rounds("hotpotqa")).isEqualTo(Folds.ROUNDS).isGreaterThan(1);
        assertThat(Folds.rounds("locomo")).isEqualTo(1);
        for (String id : ids) {
            assertThat(Folds.of("hotpotqa", id, 0)).isEqualTo(Folds.of("hotpotqa", id));
        }
        long moved = ids.stream()
                .filter(id -> !Folds.of("hotpotqa", id, 1).equals(Folds.of("hotpotqa", id, 0)))
                .count();
        // another assignment, not a renaming: about four items in five change fold
        assertThat(moved).isBetween(300L, 500L);
        assertThat(Folds.names("hotpotqa", ids, 1)).containsExactly("fold-0", "fold-1", "fold-2", "fold-3", "fold-4");
        assertThat(Folds.of("locomo", "conv-26/1", 3)).isEqualTo("conv-26");
    }
}
