package io.lorekeeper.evaluator;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The answer spans the {@code extractive} strategy weighed for one question (its trace's
 * {@code extractive.candidates} event), kept per item in report.json so that a span ranker can be
 * fitted and cross-validated offline ({@link SpanRankerFit}, {@link CrossValidation}) without asking
 * the service again.
 *
 * @param chosen the index of the candidate the strategy picked
 * @param answered whether the reported answer is exactly the chosen candidate's text; false when the strategy
 *                 answered otherwise (a yes/no, a list), and then no candidate may stand in for the answer
 */
public record AnswerCandidates(List<AnswerCandidate> candidates, int chosen, boolean answered) {

    public AnswerCandidates {
        candidates = candidates == null ? List.of() : List.copyOf(candidates);
    }

    /**
     * One span the strategy could have answered with.
     *
     * @param source where the strategy found it (e.g. {@code names}, {@code dates})
     * @param features the numbers the strategy ranked it by, by name
     */
    public record AnswerCandidate(String text, String source, Map<String, Double> features) {

        public AnswerCandidate {
            // sorted by name: report.json then writes the same bytes for the same run (Map.copyOf's order is per JVM)
            features = features == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(features));
        }
    }

    /** Whether a ranker may re-pick among the candidates: the answer was one of them. */
    boolean usable() {
        return answered && !candidates.isEmpty() && chosen >= 0 && chosen < candidates.size();
    }
}
