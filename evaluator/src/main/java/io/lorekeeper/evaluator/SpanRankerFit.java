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
 * each item's candidates in proportion to their F1 (the expected F1 of the pick), L2-regularised with a
 * penalty chosen by an inner cross-validation over the training items' folds, by gradient descent from zero.
 * Everything is deterministic: the same items give the same weights.
 *
 * <p>Only items whose answer was one of the candidates ({@link AnswerCandidates#usable}) can be re-ranked;
 * an item whose best candidate scores 0 teaches nothing (every candidate is equally wrong) and is skipped.
 */
public final class SpanRankerFit {

    static final int ITERATIONS = 5_000;

    private SpanRankerFit() {}

    /**
     * One item's candidates, each with its F1 against the gold as the report scores answers.
     *
     * @param reportedF1 the F1 of the answer the service reported (that of the chosen candidate)
     */
    record Example(String itemId, List<Map<String, Double>> features, double[] f1, double reportedF1, String group) {

        /** An example in no particular fold. */
        Example(String itemId, List<Map<String, Double>> features, double[] f1, double reportedF1) {
            this(itemId, features, f1, reportedF1, "all");
        }

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
     * The item as a ranking example, its candidates scored with the dataset's metric ({@link QuestionAsker#score});
     * null when its answer was not one of its candidates.
     */
    static Example example(String dataset, ItemResult r) {
        return example(dataset, r, 0);
    }

    /** The item as a ranking example grouped by its fold in the given assignment ({@link Folds#of(String, String, int)}). */
    static Example example(String dataset, ItemResult r, int round) {
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
            AnswerCandidates.AnswerCandidate candidate = c.candidates().get(i);
            features.add(candidate.features());
            Double score = QuestionAsker.score(item, candidate.text(), null).f1();
            f1[i] = score == null ? 0 : score;
        }
        double reported = r.scores().f1() == null ? 0 : r.scores().f1();
        // the dataset keeps two datasets' folds apart when both train one ranker
        return new Example(
                r.asked().itemId(),
                features,
                f1,
                reported,
                dataset + ":" + Folds.of(dataset, r.asked().itemId(), round));
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
                : new Example(
                        e.itemId(),
                        kept,
                        f1.stream().mapToDouble(Double::doubleValue).toArray(),
                        e.reportedF1(),
                        e.group());
    }

    /** Fits a ranker on every usable extractive item of the reports (report.json files). */
    public static Chosen fitReports(List<java.nio.file.Path> reports) {
        List<Example> examples = new ArrayList<>();
        for (ReportItems report : ReportItems.byDataset(reports)) {
            report.items().stream()
                    .filter(r -> r.asked().strategy().equals(CrossValidation.EXTRACTIVE)
                            && CrossValidation.headline(report.dataset(), r))
                    .map(r -> example(report.dataset(), r))
                    .filter(java.util.Objects::nonNull)
                    .forEach(examples::add);
        }
        return fitChoosing(examples, Example::group);
    }

    /** Fits with fixed settings (the first of the grid); {@link #fitChoosing} chooses them by folds. */
    static Model fit(List<Example> examples) {
        return fit(examples, Settings.GRID.getFirst());
    }

    /**
     * How a ranker is fitted: the L2 penalty on the scaled weights. The target is always each candidate in
     * proportion to its F1, the expected F1 of the softmax's pick, which is what the service is judged on.
     */
    public record Settings(double l2) {

        /** The penalties {@link #fitChoosing} chooses among. */
        static final List<Settings> GRID = List.of(
                new Settings(0.003), new Settings(0.01), new Settings(0.03), new Settings(0.1), new Settings(0.3));

        @Override
        public String toString() {
            return "l2=" + l2 + ", F1-weighted target";
        }
    }

    /** A model and the settings it was fitted with. */
    public record Chosen(Model model, Settings settings) {}

    /**
     * Fits with the settings that score best by an inner cross-validation over the training examples' own groups
     * (their folds): each setting is fitted on all groups but one and scored on that one. Nothing outside
     * {@code train} decides anything, so a held-out fold stays unseen even by the choice of settings.
     */
    static Chosen fitChoosing(List<Example> train, java.util.function.Function<Example, String> group) {
        List<String> groups = train.stream().map(group).distinct().sorted().toList();
        Settings best = Settings.GRID.getFirst();
        double bestF1 = Double.NEGATIVE_INFINITY;
        if (groups.size() > 1) {
            for (Settings settings : Settings.GRID) {
                Map<String, double[]> byDataset = new java.util.TreeMap<>(); // {sum of F1, items}
                for (String g : groups) {
                    Model m = fit(
                            train.stream()
                                    .filter(e -> !group.apply(e).equals(g))
                                    .toList(),
                            settings);
                    train.stream().filter(e -> group.apply(e).equals(g)).forEach(e -> {
                        double[] acc = byDataset.computeIfAbsent(dataset(g), d -> new double[2]);
                        acc[0] += m.f1(e);
                        acc[1]++;
                    });
                }
                // each dataset weighs the same, however many items it has: the targets are per dataset
                double f1 = byDataset.values().stream()
                        .mapToDouble(a -> a[0] / a[1])
                        .average()
                        .orElse(0);
                if (f1 > bestF1 + 1e-9) {
                    bestF1 = f1;
                    best = settings;
                }
            }
        }
        return new Chosen(fit(train, best), best);
    }

    /** The dataset of a group named {@code dataset:fold}. */
    private static String dataset(String group) {
        int colon = group.indexOf(':');
        return colon < 0 ? group : group.substring(0, colon);
    }

    /** Fits a ranker to the examples; none that teaches anything gives the empty model (every pick the first). */
    static Model fit(List<Example> examples, Settings settings) {
        List<Example> train = examples.stream().filter(e -> e.best() > 0).toList();
        List<String> names = new ArrayList<>(new TreeSet<>(train.stream()
                .flatMap(e -> e.features().stream())
                .flatMap(f -> f.keySet().stream())
                .toList()));
        if (train.isEmpty() || names.isEmpty()) {
            return new Model(Map.of(), train.size());
        }
        // Features come in their own units (a count, a share, a log): scaled to unit spread, one step size suits
        // them all. They are not centred: a shift cancels in a softmax over one item's candidates, and without
        // it the one-hot features stay sparse, which makes a pass cheap.
        Map<String, Integer> index = new java.util.HashMap<>();
        for (int j = 0; j < names.size(); j++) {
            index.put(names.get(j), j);
        }
        double[] scale = scales(train, names, index);
        List<Sparse[]> x = new ArrayList<>();
        List<double[]> target = new ArrayList<>();
        for (Example e : train) {
            Sparse[] rows = new Sparse[e.features().size()];
            for (int i = 0; i < rows.length; i++) {
                rows[i] = Sparse.of(e.features().get(i), index, scale);
            }
            x.add(rows);
            target.add(target(e));
        }
        double[] w = descend(x, target, names.size(), settings.l2());
        Map<String, Double> weights = new LinkedHashMap<>();
        for (int j = 0; j < names.size(); j++) {
            // six significant digits: a feature in characters may need a tiny weight, which fixed decimals would lose
            double raw = w[j] / scale[j];
            weights.put(
                    names.get(j), new BigDecimal(raw).round(new MathContext(6)).doubleValue());
        }
        return new Model(weights, train.size());
    }

    /** One candidate's non-zero features, scaled. */
    private record Sparse(int[] index, double[] value) {

        static Sparse of(Map<String, Double> features, Map<String, Integer> index, double[] scale) {
            int[] idx = new int[features.size()];
            double[] val = new double[features.size()];
            int n = 0;
            for (Map.Entry<String, Double> f : features.entrySet()) {
                Integer j = index.get(f.getKey());
                if (j != null && f.getValue() != 0) {
                    idx[n] = j;
                    val[n++] = f.getValue() / scale[j];
                }
            }
            return new Sparse(java.util.Arrays.copyOf(idx, n), java.util.Arrays.copyOf(val, n));
        }

        double dot(double[] w) {
            double s = 0;
            for (int k = 0; k < index.length; k++) {
                s += w[index[k]] * value[k];
            }
            return s;
        }
    }

    /**
     * Gradient descent from zero on the convex loss, the step growing while the loss falls and halving when it
     * would rise, until the loss stops improving: deterministic, and it cannot diverge.
     */
    private static double[] descend(List<Sparse[]> x, List<double[]> target, int dimensions, double l2) {
        double[] w = new double[dimensions];
        double[] grad = new double[dimensions];
        double loss = lossAndGradient(w, x, target, grad, l2);
        double step = 1.0;
        for (int it = 0; it < ITERATIONS && step > 1e-12; it++) {
            double[] next = new double[dimensions];
            for (int j = 0; j < dimensions; j++) {
                next[j] = w[j] - step * grad[j];
            }
            double[] nextGrad = new double[dimensions];
            double nextLoss = lossAndGradient(next, x, target, nextGrad, l2);
            if (nextLoss <= loss) {
                boolean converged = loss - nextLoss < 1e-10 * Math.max(1, Math.abs(loss));
                w = next;
                grad = nextGrad;
                loss = nextLoss;
                step *= 1.2;
                if (converged) {
                    break;
                }
            } else {
                step /= 2;
            }
        }
        return w;
    }

    private static double[] scales(List<Example> train, List<String> names, Map<String, Integer> index) {
        int n = 0;
        double[] sum = new double[names.size()];
        double[] squares = new double[names.size()];
        for (Example e : train) {
            for (Map<String, Double> f : e.features()) {
                n++;
                for (Map.Entry<String, Double> v : f.entrySet()) {
                    int j = index.get(v.getKey());
                    sum[j] += v.getValue();
                    squares[j] += v.getValue() * v.getValue();
                }
            }
        }
        double[] scale = new double[names.size()];
        for (int j = 0; j < names.size(); j++) {
            double mean = sum[j] / n;
            double sd = Math.sqrt(Math.max(0, squares[j] / n - mean * mean));
            scale[j] = sd > 1e-12 ? sd : 1; // a constant feature cancels in the softmax: any scale will do
        }
        return scale;
    }

    /** Each candidate in proportion to its F1 (the item's best scores above 0, or it would not be trained on). */
    private static double[] target(Example e) {
        double total = java.util.Arrays.stream(e.f1()).sum();
        return java.util.Arrays.stream(e.f1()).map(f -> f / total).toArray();
    }

    /** Mean cross-entropy plus the L2 penalty; the gradient goes to {@code grad}. */
    private static double lossAndGradient(
            double[] w, List<Sparse[]> x, List<double[]> target, double[] grad, double l2) {
        double loss = 0;
        for (int k = 0; k < x.size(); k++) {
            Sparse[] rows = x.get(k);
            double[] t = target.get(k);
            double[] s = new double[rows.length];
            double max = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < rows.length; i++) {
                s[i] = rows[i].dot(w);
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
                Sparse r = rows[i];
                for (int m = 0; m < r.index().length; m++) {
                    grad[r.index()[m]] += (p - t[i]) * r.value()[m];
                }
            }
        }
        double penalty = 0;
        for (int j = 0; j < w.length; j++) {
            grad[j] = grad[j] / x.size() + l2 * w[j];
            penalty += w[j] * w[j];
        }
        return loss / x.size() + l2 / 2 * penalty;
    }

    /** The model as the strategy loads it ({@code extractive/answer-spans.json}). */
    public static String json(Chosen chosen, String fittedOn, String command) {
        Model model = chosen.model();
        ObjectNode root = JsonMapper.builder().build().createObjectNode();
        root.put(
                "note",
                "Fitted by the evaluation harness; refit with the command in docs/evaluation.md (\"Cross-validated report\").");
        ObjectNode weights = root.putObject("weights");
        model.weights().forEach(weights::put);
        root.put("items", model.items());
        root.put("settings", chosen.settings().toString() + " (chosen by cross-validation over the items' folds)");
        root.put("fittedOn", fittedOn);
        root.put("command", command);
        return root.toPrettyString() + "\n";
    }
}
