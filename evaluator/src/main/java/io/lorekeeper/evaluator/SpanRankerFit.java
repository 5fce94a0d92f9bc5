package io.lorekeeper.evaluator;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import io.lorekeeper.evaluator.EvalRunner.ItemResult;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fits the extractive strategy's answer-span ranker to evaluation results: a linear score
 * {@code s(c) = Σ w_f·x_f} over each candidate's features, trained by listwise softmax cross-entropy towards
 * the candidates that score best against the gold (uniform over ties), L2-regularised, by plain gradient
 * descent from zero. Everything is deterministic: the same items give the same weights.
 *
 * <p>Only items whose answer was one of the candidates ({@link AnswerCandidates#usable}) can be re-ranked;
 * an item whose best candidate scores 0 teaches nothing (every candidate is equally wrong) and is skipped.
 */
public final class SpanRankerFit {

    static final double L2 = Double.parseDouble(System.getProperty("lk.l2", "1e-3"));
    static final boolean SOFT = Boolean.getBoolean("lk.soft");
    static final int ITERATIONS = 2_000;

    private SpanRankerFit() {}

    /**
     * One item's candidates, each with its F1 against the gold as the report scores answers.
     *
     * @param reportedF1 the F1 of the answer the service reported (that of the chosen candidate)
     */
    record Example(String itemId, List<Map<String, Double>> features, double[] f1, double reportedF1) {

        double best() {
            double best = 0;
            for (double f : f1) {
                best = Math.max(best, f);
            }
            return best;
        }
    }

    /** A fitted ranker: picks the candidate with the highest score, the earlier one on a tie (the service's order). */
    public record Model(Map<String, Double> weights, int items) {

        static final Model EMPTY = new Model(Map.of(), 0);

        double score(Map<String, Double> features) {
            double s = 0;
            for (Map.Entry<String, Double> w : weights.entrySet()) {
                s += w.getValue() * features.getOrDefault(w.getKey(), 0.0);
            }
            return s;
        }

        int pick(List<Map<String, Double>> candidates) {
            int best = 0;
            double top = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < candidates.size(); i++) {
                double s = score(candidates.get(i));
                if (s > top) {
                    top = s;
                    best = i;
                }
            }
            return best;
        }

        /** The F1 of the candidate this model picks for the item. */
        double f1(Example e) {
            return e.f1()[pick(e.features())];
        }
    }

    /**
     * The item as a ranking example, its candidates scored with the dataset's metric ({@link EvalRunner#score});
     * null when its answer was not one of its candidates.
     */
    static Example example(String dataset, ItemResult r) {
        AnswerCandidates c = r.reply().answerCandidates();
        if (c == null || !c.usable() || !"DONE".equals(r.reply().status())) {
            return null;
        }
        EvalItem item = new EvalItem(
                r.asked().itemId(),
                dataset,
                r.asked().itemId(),
                Map.of(),
                r.asked().question(),
                r.asked().gold(),
                List.of(),
                null,
                List.of(),
                r.asked().category());
        List<Map<String, Double>> features = new ArrayList<>();
        double[] f1 = new double[c.candidates().size()];
        for (int i = 0; i < f1.length; i++) {
            AnswerCandidates.Candidate candidate = c.candidates().get(i);
            features.add(candidate.features());
            Double score = EvalRunner.score(item, candidate.text(), null).f1();
            f1[i] = score == null ? 0 : score;
        }
        double reported = r.scores().f1() == null ? 0 : r.scores().f1();
        return new Example(r.asked().itemId(), features, f1, reported);
    }

    /**
     * The example without the candidates the feature marks (value 1), as if the service had not offered them;
     * null when none is left. The reported F1 stays: it is what the service answered.
     */
    static Example without(Example e, String feature) {
        if (e == null || feature == null) {
            return e;
        }
        List<Map<String, Double>> kept = new ArrayList<>();
        List<Double> f1 = new ArrayList<>();
        for (int i = 0; i < e.features().size(); i++) {
            if (e.features().get(i).getOrDefault(feature, 0.0) != 1.0) {
                kept.add(e.features().get(i));
                f1.add(e.f1()[i]);
            }
        }
        return kept.isEmpty()
                ? null
                : new Example(e.itemId(), kept, f1.stream().mapToDouble(Double::doubleValue).toArray(), e.reportedF1());
    }

    /** Fits a ranker on every usable extractive item of the reports (report.json files). */
    public static Model fitReports(List<java.nio.file.Path> reports) {
        List<Example> examples = new ArrayList<>();
        for (ReportItems report : ReportItems.byDataset(reports)) {
            report.items().stream()
                    .filter(r -> r.asked().strategy().equals(CrossValidation.EXTRACTIVE)
                            && CrossValidation.headline(report.dataset(), r))
                    .map(r -> example(report.dataset(), r))
                    .filter(java.util.Objects::nonNull)
                    .forEach(examples::add);
        }
        return fit(examples);
    }

    /** Fits a ranker to the examples; none that teaches anything gives the empty model (every pick the first). */
    static Model fit(List<Example> examples) {
        List<Example> train = examples.stream().filter(e -> e.best() > 0).toList();
        List<String> names = new ArrayList<>(new TreeSet<>(train.stream()
                .flatMap(e -> e.features().stream())
                .flatMap(f -> f.keySet().stream())
                .toList()));
        if (train.isEmpty() || names.isEmpty()) {
            return new Model(Map.of(), train.size());
        }
        // Features come in their own units (a count, a cosine, a character offset): centred and scaled to unit
        // variance one step size suits them all. Centring cancels in a softmax over one item's candidates, so
        // the weights on the raw features are the fitted ones divided by the scale.
        double[] mean = new double[names.size()];
        double[] scale = new double[names.size()];
        standardisation(train, names, mean, scale);
        List<double[][]> x = new ArrayList<>();
        List<double[]> target = new ArrayList<>();
        for (Example e : train) {
            double[][] rows = new double[e.features().size()][names.size()];
            for (int i = 0; i < rows.length; i++) {
                for (int j = 0; j < names.size(); j++) {
                    rows[i][j] = (e.features().get(i).getOrDefault(names.get(j), 0.0) - mean[j]) / scale[j];
                }
            }
            x.add(rows);
            target.add(target(e));
        }
        double[] w = new double[names.size()];
        double[] grad = new double[w.length];
        double loss = lossAndGradient(w, x, target, grad);
        double step = 1.0;
        for (int it = 0; it < ITERATIONS && step > 1e-12; it++) {
            double[] next = new double[w.length];
            for (int j = 0; j < w.length; j++) {
                next[j] = w[j] - step * grad[j];
            }
            double[] nextGrad = new double[w.length];
            double nextLoss = lossAndGradient(next, x, target, nextGrad);
            if (nextLoss <= loss) {
                w = next;
                grad = nextGrad;
                loss = nextLoss;
            } else {
                step /= 2; // too far: the loss rose; a shorter step is always downhill on this convex loss
            }
        }
        Map<String, Double> weights = new LinkedHashMap<>();
        for (int j = 0; j < names.size(); j++) {
            // six significant digits: a feature in characters may need a tiny weight, which fixed decimals would lose
            double raw = w[j] / scale[j];
            weights.put(
                    names.get(j), new BigDecimal(raw).round(new MathContext(6)).doubleValue());
        }
        return new Model(weights, train.size());
    }

    private static void standardisation(List<Example> train, List<String> names, double[] mean, double[] scale) {
        int n = 0;
        double[] sum = new double[names.size()];
        double[] squares = new double[names.size()];
        for (Example e : train) {
            for (Map<String, Double> f : e.features()) {
                n++;
                for (int j = 0; j < names.size(); j++) {
                    double v = f.getOrDefault(names.get(j), 0.0);
                    sum[j] += v;
                    squares[j] += v * v;
                }
            }
        }
        for (int j = 0; j < names.size(); j++) {
            mean[j] = sum[j] / n;
            double sd = Math.sqrt(Math.max(0, squares[j] / n - mean[j] * mean[j]));
            scale[j] = sd > 1e-12 ? sd : 1; // a constant feature cancels in the softmax: any scale will do
        }
    }

    /** Uniform over the candidates with the item's best F1. */
    private static double[] target(Example e) {
        if (SOFT) {
            double sum = java.util.Arrays.stream(e.f1()).sum();
            return java.util.Arrays.stream(e.f1()).map(f -> f / sum).toArray();
        }
        double best = e.best();
        double[] t = new double[e.f1().length];
        int ties = 0;
        for (double f : e.f1()) {
            ties += f == best ? 1 : 0;
        }
        for (int i = 0; i < t.length; i++) {
            t[i] = e.f1()[i] == best ? 1.0 / ties : 0;
        }
        return t;
    }

    /** Mean cross-entropy plus the L2 penalty; the gradient goes to {@code grad}. */
    private static double lossAndGradient(double[] w, List<double[][]> x, List<double[]> target, double[] grad) {
        double loss = 0;
        for (int k = 0; k < x.size(); k++) {
            double[][] rows = x.get(k);
            double[] t = target.get(k);
            double[] s = new double[rows.length];
            double max = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < rows.length; i++) {
                for (int j = 0; j < w.length; j++) {
                    s[i] += w[j] * rows[i][j];
                }
                max = Math.max(max, s[i]);
            }
            double z = 0;
            for (double v : s) {
                z += Math.exp(v - max);
            }
            double logZ = max + Math.log(z);
            for (int i = 0; i < rows.length; i++) {
                double p = Math.exp(s[i] - logZ);
                loss -= t[i] == 0 ? 0 : t[i] * (s[i] - logZ);
                for (int j = 0; j < w.length; j++) {
                    grad[j] += (p - t[i]) * rows[i][j];
                }
            }
        }
        double penalty = 0;
        for (int j = 0; j < w.length; j++) {
            grad[j] = grad[j] / x.size() + L2 * w[j];
            penalty += w[j] * w[j];
        }
        return loss / x.size() + L2 / 2 * penalty;
    }

    /** The model as the strategy loads it ({@code extractive/answer-spans.json}). */
    public static String json(Model model, String fittedOn, String command) {
        ObjectNode root = JsonMapper.builder().build().createObjectNode();
        root.put(
                "note",
                "Fitted by the evaluation harness; refit with the command in docs/evaluation.md (\"Cross-validated report\").");
        ObjectNode weights = root.putObject("weights");
        model.weights().forEach(weights::put);
        root.put("items", model.items());
        root.put("fittedOn", fittedOn);
        root.put("command", command);
        return root.toPrettyString() + "\n";
    }
}
