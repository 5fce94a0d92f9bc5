package io.lorekeeper.example;

import java.util.List;

import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.strategy.AnswerStrategy;
import io.lorekeeper.strategy.Aptitude;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.GoodAt;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.StrategyRequirements;
import io.lorekeeper.strategy.StrategyResult;

/**
 * Answers with the question's best passage as it stands, without a model. It declares that it is good at
 * one-call questions ahead of {@code rag} (rank 5), so that wherever it is registered, auto sends it the
 * questions for one fact. Not a component: only the context of {@link ExampleStrategyTest} registers it.
 */
public class ExampleStrategy implements AnswerStrategy {

    static final String NAME = "example";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public StrategyRequirements requirements() {
        return StrategyRequirements.of(false, "example: the question's best passage, as it stands (test sources only)");
    }

    @Override
    public List<GoodAt> goodAt() {
        return List.of(GoodAt.of(Aptitude.ONE_CALL, 5));
    }

    @Override
    public StrategyResult answer(QuestionContext context) {
        List<SearchHit> best = context.retriever().hybrid(context.documentIds(), context.question(), 1);
        if (best.isEmpty()) {
            return StrategyResult.passages("", List.of(), 0);
        }
        SearchHit hit = best.getFirst();
        return StrategyResult.passages(
                hit.text(), List.of(Citation.of(hit.documentId(), hit.start(), hit.end(), hit.text())), 0.5);
    }
}
