package io.lorekeeper.extractive;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * How likely the answer is right, from what the strategy knows when it answers: the best
 * sentence's score and its lead over the runner-up, whether the sentence holds the kind of answer
 * asked for, and what kind of short answer was taken from it. A logistic model whose coefficients
 * are data ({@value #MODEL}), fitted on evaluation results by the harness (docs/evaluation.md, "Calibrated
 * confidence"), not set by hand: a feature the file does not name weighs nothing.
 */
final class Confidence {

    static final String MODEL = "extractive/confidence.json";

    private static final Model FITTED = Model.load(MODEL);

    /**
     * A linear model over named features, read from a classpath file: logistic here
     * ({@code p = 1 / (1 + e^-(intercept + sum of weight * feature))}), a plain score for {@link SpanRanker}.
     */
    record Model(double intercept, Map<String, Double> weights) {

        static Model load(String resource) {
            try (InputStream in = Confidence.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("missing classpath resource " + resource);
                }
                JsonNode root = JsonMapper.builder().build().readTree(in);
                Map<String, Double> weights = new LinkedHashMap<>();
                root.path("weights")
                        .properties()
                        .forEach(e -> weights.put(e.getKey(), e.getValue().asDouble()));
                return new Model(root.path("intercept").asDouble(), weights);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** {@code intercept + sum of weight * feature}; a feature the model does not name weighs nothing. */
        double linear(Map<String, Double> features) {
            double z = intercept;
            for (Map.Entry<String, Double> f : features.entrySet()) {
                z += weights.getOrDefault(f.getKey(), 0.0) * f.getValue();
            }
            return z;
        }

        double probability(Map<String, Double> features) {
            return Math.max(0.01, Math.min(0.99, 1 / (1 + Math.exp(-linear(features)))));
        }
    }

    private Confidence() {}

    /**
     * The model's inputs for one answer. Kinds are one-hot ({@code kind_date} is 1 for a resolved
     * date), so each kind of short answer gets its own base rate. {@code prose} is 1 when the answer
     * comes from a text that is not a conversation: titled encyclopedia paragraphs answer by other
     * rules (definitions, second hops) than chat turns, and are right at another rate.
     */
    static Map<String, Double> features(
            double best,
            double runnerUp,
            boolean typeMatch,
            AnswerType type,
            ShortAnswer.Answer answer,
            boolean prose) {
        Map<String, Double> f = new LinkedHashMap<>();
        f.put("prose", prose ? 1.0 : 0.0);
        f.put("best", best);
        f.put("lead", Math.max(0, best - runnerUp));
        f.put("typeMatch", typeMatch ? 1.0 : 0.0);
        f.put("type_" + type.name().toLowerCase(Locale.ROOT), 1.0);
        f.put("kind_" + answer.kind().name().toLowerCase(Locale.ROOT), 1.0);
        f.put("answerWords", Math.log(1 + answer.text().split("\\s+").length));
        return f;
    }

    /**
     * What the span ranker adds: how far the chosen piece's score leads the best piece with another
     * text ({@code pieceLead}, at most 5), and how many of the best sentences offer it
     * ({@code pieceVotes}, the ranker's own log count). Nothing when no piece was ranked (a yes/no).
     */
    static void addPieces(Map<String, Double> features, List<SpanRanker.Piece> pieces, SpanRanker.Piece chosen) {
        if (chosen == null) {
            return;
        }
        double other = pieces.stream()
                .filter(p -> !p.answer().text().equalsIgnoreCase(chosen.answer().text()))
                .mapToDouble(SpanRanker.Piece::score)
                .max()
                .orElse(chosen.score() - 5);
        features.put("pieceLead", Math.min(5, Math.max(0, chosen.score() - other)));
        features.put("pieceVotes", chosen.features().getOrDefault("votes", 0.0));
    }

    static double of(Map<String, Double> features) {
        return FITTED.probability(features);
    }

    /** Softmax share of the winning choice among all choices' support scores. */
    static double ofChoice(double[] supports, int chosen, double temperature) {
        double max = Double.NEGATIVE_INFINITY;
        for (double s : supports) {
            max = Math.max(max, s);
        }
        double sum = 0;
        for (double s : supports) {
            sum += Math.exp((s - max) / temperature);
        }
        double p = Math.exp((supports[chosen] - max) / temperature) / sum;
        return Math.max(0.01, Math.min(0.99, p));
    }
}
