package io.lorekeeper.evaluator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.lorekeeper.evaluator.EvalRunner.ItemResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A written report's items read back (report.json), for the fits and the cross-validation that run on results
 * without a service.
 *
 * @param strategies in the order the run asked them
 */
record ReportItems(String dataset, List<String> strategies, List<ItemResult> items) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static ReportItems read(Path report) {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(report));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> strategies = new ArrayList<>();
        root.path("strategies").forEach(s -> strategies.add(s.asString()));
        List<ItemResult> items = new ArrayList<>();
        for (JsonNode item : root.path("items")) {
            items.add(JSON.treeToValue(item, ItemResult.class));
        }
        return new ReportItems(root.path("dataset").asString(""), strategies, items);
    }

    /**
     * The reports' items grouped by dataset; an item asked again with the same strategy in a later report replaces
     * the earlier one, so that no item is counted (or lands in two folds) twice.
     */
    static List<ReportItems> byDataset(List<Path> reports) {
        Map<String, List<String>> strategies = new LinkedHashMap<>();
        Map<String, Map<String, ItemResult>> items = new LinkedHashMap<>();
        for (Path path : reports) {
            ReportItems report = read(path);
            List<String> known = strategies.computeIfAbsent(report.dataset(), d -> new ArrayList<>());
            report.strategies().stream().filter(s -> !known.contains(s)).forEach(known::add);
            Map<String, ItemResult> mine = items.computeIfAbsent(report.dataset(), d -> new LinkedHashMap<>());
            for (ItemResult r : report.items()) {
                mine.put(r.asked().strategy() + "\n" + r.asked().itemId(), r);
            }
        }
        List<ReportItems> out = new ArrayList<>();
        strategies.forEach((dataset, names) -> out.add(new ReportItems(
                dataset, List.copyOf(names), List.copyOf(items.get(dataset).values()))));
        return out;
    }
}
