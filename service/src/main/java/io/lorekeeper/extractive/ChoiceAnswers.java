package io.lorekeeper.extractive;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.lorekeeper.memory.Embeddings;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.StrategyResult;

/**
 * Closed questions, answered by choosing rather than extracting: one of the caller's choices
 * (multiple choice), or one of the alternatives the question itself names ("A or B?").
 */
final class ChoiceAnswers {

    private final Embeddings embeddings;

    ChoiceAnswers(Embeddings embeddings) {
        this.embeddings = embeddings;
    }

    StrategyResult choose(QuestionContext context, List<Candidate> candidates, List<float[]> vectors) {
        ChoicePicker.Pick pick =
                ChoicePicker.pick(context.question(), context.choices(), candidates, vectors, embeddings);
        Map<String, Double> supports = new LinkedHashMap<>();
        for (int i = 0; i < context.choices().size(); i++) {
            supports.put(context.choices().get(i), ExtractiveStrategy.round(pick.supports()[i]));
        }
        context.trace()
                .record(new ExtractiveEvent.Choices(
                        supports, pick.choice(), pick.evidence().text()));
        return new StrategyResult(
                context.choices().get(pick.choice()),
                StrategyResult.EXTRACTIVE,
                List.of(ExtractiveStrategy.citation(pick.evidence())),
                pick.confidence(),
                pick.choice(),
                false);
    }

    /**
     * "Who is older, A or B?": the question's own alternatives are the choices. A comparison in time
     * is decided by the year each alternative's best sentence gives (a birth or founding date);
     * otherwise, or when a year is missing, by which alternative the evidence supports best. The
     * answer is the alternative's text, cited from the sentence that decided it.
     */
    StrategyResult alternative(
            QuestionContext context,
            List<String> alternatives,
            List<SentenceScorer.Scored> scored,
            List<Candidate> candidates,
            List<float[]> vectors) {
        int direction = ClosedQuestions.timeDirection(context.question());
        Optional<StrategyResult> byYears =
                direction == 0 ? Optional.empty() : byYears(context, alternatives, scored, direction);
        if (byYears.isPresent()) {
            return byYears.get();
        }
        ChoicePicker.Pick pick = ChoicePicker.pick(context.question(), alternatives, candidates, vectors, embeddings);
        String chosen = alternatives.get(pick.choice());
        context.trace()
                .record(new ExtractiveEvent.Alternatives(
                        alternatives, null, chosen, pick.evidence().text()));
        return new StrategyResult(
                chosen,
                StrategyResult.EXTRACTIVE,
                List.of(ExtractiveStrategy.citation(pick.evidence())),
                pick.confidence(),
                null,
                false);
    }

    /**
     * A comparison in time decided by the year each alternative's best sentence gives (the first
     * sentence naming it with a year); empty when a year is missing or both are the same.
     *
     * @param direction below zero when the earlier year wins ("older", "first"), above when the later does
     */
    private static Optional<StrategyResult> byYears(
            QuestionContext context, List<String> alternatives, List<SentenceScorer.Scored> scored, int direction) {
        Candidate[] evidence = new Candidate[alternatives.size()];
        Integer[] years = new Integer[alternatives.size()];
        for (int i = 0; i < alternatives.size(); i++) {
            String name = alternatives.get(i).toLowerCase(java.util.Locale.ROOT);
            for (SentenceScorer.Scored s : scored) {
                Optional<Integer> year = ClosedQuestions.firstYear(s.candidate().text());
                if (s.candidate().text().toLowerCase(java.util.Locale.ROOT).contains(name) && year.isPresent()) {
                    evidence[i] = s.candidate();
                    years[i] = year.get();
                    break;
                }
            }
        }
        if (years[0] == null || years[1] == null || years[0].equals(years[1])) {
            return Optional.empty();
        }
        String chosen = alternatives.get((years[0] < years[1]) == (direction < 0) ? 0 : 1);
        context.trace()
                .record(new ExtractiveEvent.Alternatives(alternatives, List.of(years[0], years[1]), chosen, null));
        Map<String, Double> features = Map.of("kind_choice", 1.0, "typeMatch", 1.0);
        double confidence = Confidence.of(features);
        // recorded like every other answer's, so that a fit sees how often a decision by years is right
        context.trace().record(new ExtractiveEvent.Answer(chosen, confidence, 2, features));
        return Optional.of(new StrategyResult(
                chosen,
                StrategyResult.EXTRACTIVE,
                List.of(ExtractiveStrategy.citation(evidence[0]), ExtractiveStrategy.citation(evidence[1])),
                confidence,
                null,
                false));
    }
}
