package io.lorekeeper.extractive;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.lorekeeper.memory.Embeddings;
import io.lorekeeper.text.Terms;

/**
 * Multiple choice without a model: each choice is scored by its best supporting sentence, where
 * support mixes the sentence's similarity to "question + choice" with how many of the choice's own
 * words (those not already in the question) the sentence contains.
 */
final class ChoicePicker {

    static final double W_SEMANTIC = 0.4;
    static final double W_LEXICAL = 0.6;

    record Pick(int choice, double[] supports, Candidate evidence, double confidence) {}

    private ChoicePicker() {}

    static Pick pick(
            String question,
            List<String> choices,
            List<Candidate> candidates,
            List<float[]> vectors,
            Embeddings embeddings) {
        Set<String> questionTerms = new HashSet<>(Terms.of(question));
        List<Set<String>> sentenceTerms =
                candidates.stream().map(c -> Set.copyOf(Terms.of(c.text()))).toList();
        double[] supports = new double[choices.size()];
        Candidate[] evidence = new Candidate[choices.size()];
        for (int i = 0; i < choices.size(); i++) {
            float[] query = embeddings.query(question + " " + choices.get(i));
            Set<String> own = new HashSet<>(Terms.of(choices.get(i)));
            own.removeAll(questionTerms);
            if (own.isEmpty()) {
                own.addAll(Terms.of(choices.get(i)));
            }
            supports[i] = Double.NEGATIVE_INFINITY;
            for (int s = 0; s < candidates.size(); s++) {
                long matched =
                        own.stream().filter(sentenceTerms.get(s)::contains).count();
                double lexical = own.isEmpty() ? 0 : (double) matched / own.size();
                double support = W_SEMANTIC * SentenceScorer.cosine(query, vectors.get(s)) + W_LEXICAL * lexical;
                if (support > supports[i]) {
                    supports[i] = support;
                    evidence[i] = candidates.get(s);
                }
            }
        }
        int best = 0;
        for (int i = 1; i < supports.length; i++) {
            if (supports[i] > supports[best]) {
                best = i;
            }
        }
        return new Pick(best, supports, evidence[best], Confidence.ofChoice(supports, best, 0.05));
    }
}
