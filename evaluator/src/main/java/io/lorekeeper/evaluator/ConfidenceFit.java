package io.lorekeeper.evaluator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fits a strategy's confidence to evaluation results: a logistic regression (L2-regularised,
 * gradient descent) from the features the strategy recorded with each answer to whether the answer
 * was right ({@link Calibration#right}). A third of the items, chosen by a hash of the item id, is
 * held out and only scored, so the Brier score reported for it is not measured on what was fitted.
 */
public final class ConfidenceFit {

    static final double L2 = 1e-3;
    static final int ITERATIONS = 20_000;
    static final double STEP = 0.5;

    record Example(String itemId, Map<String, Double> features, boolean right) {

        boolean heldOut() {
            return Math.floorMod(itemId.hashCode(), 3) == 0;
        }
    }

    /** The fitted model with its Brier scores (train, held out, and what the strategy's own confidences scored there). */
    public record Fit(
            double intercept,
            Map<String, Double> weights,
            int trained,
            int held,
            double trainBrier,
            double heldBrier,
            Double heldBrierBefore) {}

    /**
     * What a confidence predicts: that a short answer is right (from the features of its
     * {@code confidenceFeatures}), or that a passage answer's passages hold the gold answer (from its
     * {@code passageFeatures}; the extractive strategy's {@code passage-confidence.json}).
     */
    public enum Target {
        ANSWER("confidenceFeatures", "confidence.json"),
        PASSAGES("passageFeatures", "passage-confidence.json");

        final String features;
        public final String resource;

        Target(String features, String resource) {
            this.features = features;
            this.resource = resource;
        }

        Boolean right(JsonNode item) {
            return this == PASSAGES
                    ? (item.hasNonNull("holdsAnswer") ? item.get("holdsAnswer").asBoolean() : null)
                    : ConfidenceFit.right(item);
        }
    }

    private ConfidenceFit() {}

    /**
     * Fits the confidence of {@code strategy} to its answers in the reports (report.json files).
     *
     * @param before the strategy's own confidences of the held-out answers, as the reports give them
     */
    public static Fit fit(List<Path> reports, String strategy) {
        return fit(reports, strategy, Target.ANSWER, java.util.Set.of());
    }

    /**
     * Fits the confidence of {@code strategy} for {@code target} to its answers in the reports.
     *
     * @param only the features to weigh (others are left out, as a model file that does not name them leaves
     *             them); empty: all the answers recorded. Few examples fit few features.
     */
    public static Fit fit(List<Path> reports, String strategy, Target target, java.util.Set<String> only) {
        List<Double> before = new ArrayList<>();
        List<Example> examples = examples(reports, strategy, before, new ArrayList<>(), target);
        if (!only.isEmpty()) {
            examples = examples.stream()
                    .map(e -> {
                        Map<String, Double> kept = new LinkedHashMap<>(e.features());
                        kept.keySet().retainAll(only);
                        return new Example(e.itemId(), kept, e.right());
                    })
                    .toList();
        }
        return fit(examples, before);
    }

    /** The strategy's answers in the reports, as examples; items without features or a verdict are left out. */
    static List<Example> examples(
            List<Path> reports, String strategy, List<Double> confidencesOut, List<Boolean> heldOutMask) {
        return examples(reports, strategy, confidencesOut, heldOutMask, Target.ANSWER);
    }

    static List<Example> examples(
            List<Path> reports,
            String strategy,
            List<Double> confidencesOut,
            List<Boolean> heldOutMask,
            Target target) {
        List<Example> out = new ArrayList<>();
        JsonMapper json = JsonMapper.builder().build();
        for (Path report : reports) {
            JsonNode root;
            try {
                root = json.readTree(Files.readString(report));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            for (JsonNode item : root.path("items")) {
                if (!strategy.equals(item.path("strategy").asString())
                        || !"DONE".equals(item.path("status").asString())
                        || !item.path(target.features).isObject()) {
                    continue;
                }
                Boolean right = target.right(item);
                if (right == null) {
                    continue;
                }
                Map<String, Double> features = new LinkedHashMap<>();
                item.path(target.features)
                        .properties()
                        .forEach(e -> features.put(e.getKey(), e.getValue().asDouble()));
                // the dataset name keeps ids of two datasets apart
                Example example = new Example(
                        root.path("dataset").asString("") + ":"
                                + item.path("itemId").asString(),
                        features,
                        right);
                out.add(example);
                confidencesOut.add(
                        item.hasNonNull("confidence") ? item.get("confidence").asDouble() : null);
                heldOutMask.add(example.heldOut());
            }
        }
        return out;
    }

    static Boolean right(JsonNode item) {
        if (item.hasNonNull("judge")) {
            return item.get("judge").asDouble() >= 0.5;
        }
        // a passage answer: its short answer, withheld, is what the short answer's confidence is about
        JsonNode withheld = item.path("withheld");
        if (withheld.isObject()) {
            return withheld.hasNonNull("f1") ? withheld.get("f1").asDouble() >= 0.5 : null;
        }
        JsonNode score = item.hasNonNull("accuracy") ? item.get("accuracy") : item.get("f1");
        return score == null || score.isNull() ? null : score.asDouble() >= 0.5;
    }

    /**
     * A fitted logistic confidence: its feature names and weights (intercept first, rounded as written to the
     * strategy's model file, so that what is scored is what would ship).
     */
    record Logistic(List<String> names, double[] w) {

        /** The confidence for the features, clamped as the strategy clamps it. */
        double confidence(Map<String, Double> features) {
            return Math.max(0.01, Math.min(0.99, predict(w, names, features)));
        }
    }

    /** Fits the logistic confidence to the examples (all of them: the caller picks the training set). */
    static Logistic train(List<Example> train) {
        return train(train, names(train));
    }

    private static List<String> names(List<Example> examples) {
        return new ArrayList<>(new TreeSet<>(
                examples.stream().flatMap(e -> e.features().keySet().stream()).toList()));
    }

    /** @param names every feature to weigh (one the training examples lack keeps weight 0) */
    private static Logistic train(List<Example> train, List<String> names) {
        double[] w = new double[names.size() + 1];
        for (int it = 0; it < ITERATIONS; it++) {
            double[] grad = new double[w.length];
            for (Example e : train) {
                double error = predict(w, names, e.features()) - (e.right() ? 1 : 0);
                grad[0] += error;
                for (int j = 0; j < names.size(); j++) {
                    grad[j + 1] += error * e.features().getOrDefault(names.get(j), 0.0);
                }
            }
            for (int j = 0; j < w.length; j++) {
                double penalty = j == 0 ? 0 : L2 * w[j];
                w[j] -= STEP * (grad[j] / train.size() + penalty);
            }
        }
        double[] rounded = new double[w.length];
        for (int j = 0; j < w.length; j++) {
            rounded[j] = Math.round(w[j] * 10000) / 10000.0;
        }
        return new Logistic(names, rounded);
    }

    static Fit fit(List<Example> examples, List<Double> before) {
        List<Example> train = examples.stream().filter(e -> !e.heldOut()).toList();
        List<Example> held = examples.stream().filter(Example::heldOut).toList();
        if (train.isEmpty()) {
            throw new IllegalArgumentException(
                    "no examples to fit: the reports hold no answers with confidence features");
        }
        List<String> names = names(examples);
        Logistic model = train(train, names);
        double[] rounded = model.w();
        Map<String, Double> weights = new LinkedHashMap<>();
        for (int j = 0; j < names.size(); j++) {
            weights.put(names.get(j), rounded[j + 1]);
        }
        Double heldBefore = null;
        if (before != null) {
            double sum = 0;
            int n = 0;
            for (int i = 0; i < examples.size(); i++) {
                if (examples.get(i).heldOut() && before.get(i) != null) {
                    double d = before.get(i) - (examples.get(i).right() ? 1 : 0);
                    sum += d * d;
                    n++;
                }
            }
            heldBefore = n == 0 ? null : sum / n;
        }
        return new Fit(
                rounded[0],
                weights,
                train.size(),
                held.size(),
                brier(rounded, names, train),
                brier(rounded, names, held),
                heldBefore);
    }

    public static String json(Fit fit, String command) {
        return json(fit, command, "Calibrated confidence");
    }

    /** @param section the docs/evaluation.md section that has the command */
    public static String json(Fit fit, String command, String section) {
        ObjectNode root = JsonMapper.builder().build().createObjectNode();
        root.put(
                "note",
                "Fitted by the evaluation harness; refit with the command in docs/evaluation.md (\"" + section
                        + "\").");
        root.put("command", command);
        root.put("trainedOn", fit.trained());
        root.put("heldOut", fit.held());
        root.put("trainBrier", Math.round(fit.trainBrier() * 10000) / 10000.0);
        root.put("heldOutBrier", Math.round(fit.heldBrier() * 10000) / 10000.0);
        root.put("intercept", fit.intercept());
        ObjectNode weights = root.putObject("weights");
        fit.weights().forEach(weights::put);
        return root.toPrettyString() + "\n";
    }

    private static double predict(double[] w, List<String> names, Map<String, Double> features) {
        double z = w[0];
        for (int j = 0; j < names.size(); j++) {
            z += w[j + 1] * features.getOrDefault(names.get(j), 0.0);
        }
        return 1 / (1 + Math.exp(-z));
    }

    private static double brier(double[] w, List<String> names, List<Example> examples) {
        if (examples.isEmpty()) {
            return Double.NaN;
        }
        double sum = 0;
        for (Example e : examples) {
            // the same clamp as the strategy applies
            double p = Math.max(0.01, Math.min(0.99, predict(w, names, e.features())));
            double d = p - (e.right() ? 1 : 0);
            sum += d * d;
        }
        return sum / examples.size();
    }
}
