package io.lorekeeper.support;

import java.util.Set;
import java.util.function.Function;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import io.lorekeeper.strategy.AnswerStrategy;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.StrategyRequirements;
import io.lorekeeper.strategy.StrategyResult;

/** Strategies that exist only in tests, to exercise the question machinery around any strategy. */
@TestConfiguration(proxyBeanMethods = false)
public class TestStrategies {

    /** Needs an LLM, which tests never configure: asking it must be refused. */
    @Bean
    AnswerStrategy needsLlmStrategy() {
        return new AnswerStrategy() {
            @Override
            public String name() {
                return "test-needs-llm";
            }

            @Override
            public StrategyRequirements requirements() {
                return new StrategyRequirements(true, Set.of(), "test double that needs an LLM");
            }

            @Override
            public StrategyResult answer(QuestionContext context) {
                throw new AssertionError("must never run without an LLM");
            }
        };
    }

    @Bean
    ScriptedStrategy scriptedStrategy() {
        return new ScriptedStrategy();
    }

    /** Does whatever the test scripted last: return a given result, or throw. */
    public static class ScriptedStrategy implements AnswerStrategy {
        private volatile Function<QuestionContext, StrategyResult> script = c -> {
            throw new IllegalStateException("no script");
        };

        public void script(Function<QuestionContext, StrategyResult> behaviour) {
            this.script = behaviour;
        }

        @Override
        public String name() {
            return "test-scripted";
        }

        @Override
        public StrategyRequirements requirements() {
            return new StrategyRequirements(false, Set.of(), "test double scripted by the test");
        }

        @Override
        public StrategyResult answer(QuestionContext context) {
            return script.apply(context);
        }
    }
}
