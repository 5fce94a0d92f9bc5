package io.lorekeeper.memcot;

import java.util.List;

import org.springframework.stereotype.Component;

import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.Role;
import io.lorekeeper.strategy.Aptitude;
import io.lorekeeper.strategy.GoodAt;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.SettingsStrategy;
import io.lorekeeper.strategy.StrategyRequirements;
import io.lorekeeper.strategy.StrategyResult;

/**
 * MemCoT (seed 002_145a8986b1d3f12c): a memory-driven chain of thought at question time. Up to
 * {@code maxSteps} iterations of zoom-in, zoom-out, judge and memory evolution over the ordinary
 * retrieval index ({@link MemCotLoop}), then a responder that answers from the short-term memory
 * alone ({@link Responder}). Needs no memory built at ingestion beyond chunks and their indexes; the
 * paper's graph store is replaced by hybrid retrieval, which its own ablation shows costs little.
 * Visual grounding over rendered session images is out of scope for text input.
 */
@Component
class MemCotStrategy extends SettingsStrategy<MemCotSettings> {

    private final LlmGateway gateway;

    MemCotStrategy(LlmGateway gateway) {
        super(
                "memcot",
                StrategyRequirements.of(
                        true,
                        "MemCoT: zoom-in/zoom-out retrieval and a judge that breaks up or prunes the query, over a short-term evidence memory"),
                MemCotSettings::of);
        this.gateway = gateway;
    }

    @Override
    public List<GoodAt> goodAt() {
        return List.of(GoodAt.of(Aptitude.CONVERSATION_REASONING, 20), GoodAt.of(Aptitude.JOINED_FACTS, 20));
    }

    /** One round of zoom-in, zoom-out and judge, and the answer. */
    @Override
    public int minimumCalls() {
        return 4;
    }

    @Override
    protected StrategyResult answer(QuestionContext context, MemCotSettings settings) {
        Units units = new Units(context.documentIds(), context.retriever());
        MemCotLoop.Outcome outcome = new MemCotLoop(context, settings, units).run();
        return new Responder(context, settings, units, gateway.contextLimit(Role.ANSWERER)).answer(outcome);
    }
}
