package io.lorekeeper.auto;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.DocumentStatus;
import io.lorekeeper.strategy.AnswerStrategy;
import io.lorekeeper.strategy.GoodAt;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.strategy.Strategies;
import io.lorekeeper.support.LlmIntegrationTest;

/**
 * What the deployed strategies declare to auto: the kinds of question each is good at (the rules' tests
 * read them from {@link DeclaredToday}, held here to the beans), and the fewest calls each needs, which
 * grow with the text for the strategies that read it block by block.
 */
@LlmIntegrationTest
class DeclarationsTest {

    @Autowired
    Strategies strategies;

    @Test
    void theRulesTestsRouteOverWhatTheDeployedStrategiesDeclare() {
        Map<String, List<GoodAt>> declared = new LinkedHashMap<>();
        for (AnswerStrategy strategy : strategies.all()) {
            if (!strategy.goodAt().isEmpty()) {
                declared.put(strategy.name(), strategy.goodAt());
            }
        }
        assertThat(declared).isEqualTo(DeclaredToday.DECLARED);
    }

    @Test
    void theMinimumCallsOfAReadingGrowWithTheTextAndRoundUp() {
        List<DocumentInfo> book = text(250_000);

        assertThat(calls("mindgraph", Map.of(), book)).isEqualTo(32);
        assertThat(calls("mindgraph", Map.of("graph", "shared"), book)).isEqualTo(1);
        assertThat(calls("mindgraph", Map.of(), text(2 * 8_192))).isEqualTo(3);
        assertThat(calls("mindgraph", Map.of(), text(2 * 8_192 + 1))).isEqualTo(4);
        assertThat(calls("cosmir", Map.of(), book)).isEqualTo(14);
        assertThat(calls("cosmir", Map.of(), text(0))).as("at least one chunk").isEqualTo(5);
        assertThat(calls("chain-of-agents", Map.of(), text(64_000)))
                .as("a worker and the manager")
                .isEqualTo(2);
    }

    @Test
    void theResearchLoopsNeedARoundAndTheAnswer() {
        List<DocumentInfo> empty = text(0);
        assertThat(calls("gam", Map.of(), empty)).isEqualTo(4);
        assertThat(calls("memcot", Map.of(), empty)).isEqualTo(4);
        assertThat(calls("comorag", Map.of(), empty)).isEqualTo(3);
        assertThat(calls("rag", Map.of(), empty)).isEqualTo(1);
        assertThat(calls(Strategies.DEFAULT, Map.of(), empty)).isZero();
    }

    private int calls(String strategy, Map<String, Object> options, List<DocumentInfo> documents) {
        return strategies.require(strategy).minimumCalls(new QuestionOptions(options), documents);
    }

    private static List<DocumentInfo> text(int tokens) {
        return List.of(new DocumentInfo(
                UUID.randomUUID(),
                UUID.randomUUID(),
                "a text",
                DocumentKind.TEXT,
                "default",
                DocumentStatus.READY,
                tokens * 4,
                tokens,
                tokens / 250));
    }
}
