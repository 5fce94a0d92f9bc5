package io.lorekeeper.evaluator;

import static io.lorekeeper.evaluator.CrossValidation.OVERALL;
import static io.lorekeeper.evaluator.CrossValidation.headline;
import static io.lorekeeper.evaluator.CrossValidation.others;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;

import io.lorekeeper.evaluator.CrossValidation.EvidenceRecall;
import io.lorekeeper.evaluator.CrossValidation.FoldChoice;
import io.lorekeeper.evaluator.CrossValidation.RecallRow;
import io.lorekeeper.evaluator.EvalRunner.ItemResult;

/**
 * The search probes' evidence recall when which probe to trust, per category, is chosen on the other folds: the
 * best probe on all folds flatters itself, as any choice made on the items it is scored on does.
 */
final class ProbeCrossValidation {

    private ProbeCrossValidation() {}

    static EvidenceRecall recall(String dataset, List<String> folds, List<String> strategies, List<ItemResult> items) {
        List<ItemResult> probed = items.stream()
                .filter(r -> r.asked().strategy().startsWith(EvalRunner.SEARCH_PREFIX)
                        && headline(dataset, r)
                        && r.evidence().evidenceRecall() != null)
                .toList();
        List<String> probes = strategies.stream()
                .filter(s -> probed.stream().anyMatch(r -> r.asked().strategy().equals(s)))
                .toList();
        List<String> columns = new ArrayList<>(
                new TreeSet<>(probed.stream().map(r -> r.asked().category()).toList()));
        columns.add(OVERALL);
        List<RecallRow> rows = new ArrayList<>();
        if (probes.isEmpty()) {
            return new EvidenceRecall(columns, rows, List.of());
        }
        for (String probe : probes) {
            Map<String, Double> recall = new LinkedHashMap<>();
            for (String column : columns) {
                recall.put(column, recall(dataset, probed, probe, column, fold -> true));
            }
            rows.add(new RecallRow(probe, "all folds", recall));
        }
        Map<String, Double> best = new LinkedHashMap<>();
        for (String column : columns) {
            String chosen = choose(dataset, probed, probes, column, fold -> true);
            best.put(column, recall(dataset, probed, chosen, column, fold -> true));
        }
        rows.add(new RecallRow("best probe (chosen on all folds)", "all folds", best));
        // per held-out fold, the probe chosen on the others; the held-out items' recalls pooled over the folds
        List<FoldChoice> choices = new ArrayList<>();
        Map<String, List<Double>> pooled = new LinkedHashMap<>();
        columns.forEach(c -> pooled.put(c, new ArrayList<>()));
        for (String fold : folds) {
            Map<String, String> chosen = new LinkedHashMap<>();
            for (String column : columns) {
                String probe = choose(dataset, probed, probes, column, f -> !f.equals(fold));
                chosen.put(column, probe);
                probed.stream()
                        .filter(r -> in(dataset, r, probe, column, fold::equals))
                        .forEach(r -> pooled.get(column).add(r.evidence().evidenceRecall()));
            }
            choices.add(new FoldChoice(fold, others(folds, fold), chosen));
        }
        Map<String, Double> cv = new LinkedHashMap<>();
        Map<String, Double> gap = new LinkedHashMap<>();
        for (String column : columns) {
            List<Double> values = pooled.get(column);
            Double value = values.isEmpty()
                    ? null
                    : values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            cv.put(column, value);
            gap.put(column, value == null || best.get(column) == null ? null : best.get(column) - value);
        }
        rows.add(new RecallRow(
                "chosen (cross-validated)", "chosen on the other folds, scored on each held-out fold", cv));
        rows.add(new RecallRow("gap (best − cross-validated)", "", gap));
        return new EvidenceRecall(columns, rows, choices);
    }

    private static boolean in(String dataset, ItemResult r, String probe, String column, Predicate<String> folds) {
        return r.asked().strategy().equals(probe)
                && (column.equals(OVERALL) || r.asked().category().equals(column))
                && folds.test(Folds.of(dataset, r.asked().itemId()));
    }

    private static Double recall(
            String dataset, List<ItemResult> probed, String probe, String column, Predicate<String> folds) {
        List<ItemResult> cell = probed.stream()
                .filter(r -> in(dataset, r, probe, column, folds))
                .toList();
        return Report.mean(cell, r -> r.evidence().evidenceRecall());
    }

    /** The probe with the best mean recall on the folds given; the earlier probe on a tie (or where none has items). */
    private static String choose(
            String dataset, List<ItemResult> probed, List<String> probes, String column, Predicate<String> folds) {
        String chosen = probes.getFirst();
        double top = Double.NEGATIVE_INFINITY;
        for (String probe : probes) {
            Double r = recall(dataset, probed, probe, column, folds);
            if (r != null && r > top) {
                top = r;
                chosen = probe;
            }
        }
        return chosen;
    }
}
