package io.lorekeeper.auto;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonTypeName;

import io.lorekeeper.strategy.TraceEvent;
import io.swagger.v3.oas.annotations.media.Schema;

/** What the {@code auto} strategy records: the route it picked, before the picked strategy's own events. */
sealed interface AutoEvent extends TraceEvent {

    /**
     * The strategy auto picked for this question and why: the rule that applied, the facts that made
     * it apply and every candidate tried before it, so a reader can tell a wrong route from a wrong
     * answer.
     *
     * @param chosen     the strategy that answers
     * @param options    the options it runs with
     * @param considered each candidate tried, with why it could not run ({@code chosen} for the pick)
     * @param situation  what was known before any model call, which the rules read
     */
    @JsonTypeName("auto.route")
    @Schema(name = "AutoRoute")
    record Route(
            String chosen,
            Map<String, Object> options,
            String rule,
            List<String> reasons,
            List<Map<String, String>> considered,
            Seen situation)
            implements AutoEvent {

        static Route of(Choice choice, Map<String, Object> options, Situation situation) {
            return new Route(
                    choice.candidate().strategy(),
                    options,
                    choice.rule(),
                    choice.reasons(),
                    choice.considered(),
                    new Seen(
                            situation.llm(),
                            situation.conversation(),
                            situation.tokens(),
                            situation.chunks(),
                            situation.form(),
                            situation.maxCalls(),
                            situation.maxTokens()));
        }
    }

    /** The {@link Situation} as the trace shows it; {@code question} is what its wording asks for. */
    @Schema(name = "AutoSituation")
    record Seen(
            boolean llm,
            boolean conversation,
            long tokens,
            int chunks,
            QuestionForm question,
            int maxCalls,
            long maxTokens) {}
}
