package io.lorekeeper.auto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.strategy.AnswerStrategy;
import io.lorekeeper.strategy.Aptitude;
import io.lorekeeper.strategy.GoodAt;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.strategy.Strategies;
import io.lorekeeper.strategy.StrategyRequirements;
import io.lorekeeper.strategy.StrategyResult;

/**
 * auto's routes are built from what the deployed strategies declare, and a declaration it cannot follow
 * stops the start with a message that names the strategy and what to change.
 */
class RoutesAtStartTest {

    @Test
    void aStrategyIsRoutedByItsDeclarationAlone() {
        Routes routes = Routes.over(List.of(
                declared(Strategies.DEFAULT, false, List.of()),
                declared("quick", true, List.of(GoodAt.of(Aptitude.ONE_CALL, 10))),
                declared("quicker", true, List.of(GoodAt.of(Aptitude.ONE_CALL, 5)))));

        assertThat(routes.candidates(Aptitude.ONE_CALL))
                .containsExactly(Candidate.of("quicker"), Candidate.of("quick"));
        assertThat(routes.candidates(Aptitude.JOINED_FACTS)).isEmpty();
        Situation single =
                new Situation(true, false, 30_000, 120, QuestionForm.of("What did Pip eat?", false), 200, 2_000_000);
        Choice choice = routes.choose(single, c -> java.util.Optional.empty());
        assertThat(choice.candidate().strategy()).isEqualTo("quicker");
        Situation joins =
                new Situation(true, false, 30_000, 120, QuestionForm.of("Why did Pip leave?", false), 200, 2_000_000);
        assertThat(routes.choose(joins, c -> java.util.Optional.empty()).considered())
                .as("nothing declared joined facts: the one-call strategies, then the default")
                .extracting(m -> m.get("strategy"))
                .containsExactly("quicker");
    }

    @Test
    void twoStrategiesAtOneRankAreRefused() {
        assertThatThrownBy(() -> Routes.over(List.of(
                        declared(Strategies.DEFAULT, false, List.of()),
                        declared("one", true, List.of(GoodAt.of(Aptitude.JOINED_FACTS, 10))),
                        declared("two", true, List.of(GoodAt.of(Aptitude.JOINED_FACTS, 10))))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("strategies 'one' and 'two' both declare JOINED_FACTS at rank 10: auto cannot tell which"
                        + " to try first; give one of them another rank");
    }

    @Test
    void declaredOptionsTheStrategyRefusesAreRefused() {
        AnswerStrategy picky = new Declared("picky", true, List.of(new GoodAt(Aptitude.ONE_CALL, 10, Map.of("k", 0)))) {
            @Override
            public void validate(QuestionOptions options) {
                options.intValue("k", 8, 1, 50);
            }
        };

        assertThatThrownBy(() -> Routes.over(List.of(declared(Strategies.DEFAULT, false, List.of()), picky)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith(
                        "strategy 'picky' declares it is good at ONE_CALL with options {k=0}, which it" + " refuses: ")
                .hasCauseInstanceOf(ApiProblem.class);
    }

    @Test
    void theDefaultMustBeDeployedAndRunAnywhere() {
        assertThatThrownBy(() -> Routes.over(List.of(declared("rag", true, List.of()))))
                .hasMessage(
                        "auto falls back to the default strategy '" + Strategies.DEFAULT + "', which is not deployed");
        assertThatThrownBy(() -> Routes.over(List.of(declared(Strategies.DEFAULT, true, List.of()))))
                .hasMessage("auto falls back to the default strategy '" + Strategies.DEFAULT
                        + "', which must run without an LLM, a memory or a model call");
    }

    private static AnswerStrategy declared(String name, boolean needsLlm, List<GoodAt> goodAt) {
        return new Declared(name, needsLlm, goodAt);
    }

    private static class Declared implements AnswerStrategy {
        private final String name;
        private final boolean needsLlm;
        private final List<GoodAt> goodAt;

        Declared(String name, boolean needsLlm, List<GoodAt> goodAt) {
            this.name = name;
            this.needsLlm = needsLlm;
            this.goodAt = goodAt;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public StrategyRequirements requirements() {
            return new StrategyRequirements(needsLlm, Set.of(), "declared for a test");
        }

        @Override
        public List<GoodAt> goodAt() {
            return goodAt;
        }

        @Override
        public StrategyResult answer(QuestionContext context) {
            throw new AssertionError("routing never answers");
        }
    }
}
