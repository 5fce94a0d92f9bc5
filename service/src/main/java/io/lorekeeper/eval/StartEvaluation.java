package io.lorekeeper.eval;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.lorekeeper.evaluator.Datasets;
import io.lorekeeper.evaluator.EvalItem;
import io.lorekeeper.evaluator.EvalRunner;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.retrieval.SearchMode;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.strategy.Strategies;
import io.swagger.v3.oas.annotations.media.Schema;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The body of {@code POST /v1/evaluations}, stored as is with the evaluation: the job that runs it,
 * on whichever replica, loads its items again from it (inline items, or the dataset file under that
 * replica's data folder).
 */
record StartEvaluation(
        @Schema(description = "locomo, hotpotqa, loogle, comorag or jsonl")
        String dataset,

        @Schema(description = "File or folder relative to the server's lorekeeper.eval.data-dir")
        String path,

        @Schema(description = "Inline items in the generic JSONL format (dataset jsonl), instead of path")
        List<Map<String, Object>> items,

        @Schema(description = "Strategies to compare, or search:vector|keyword|hybrid|deep retrieval probes")
        List<String> strategies,

        @Schema(description = "Per strategy, the options sent with each question, e.g. {\"rag\": {\"k\": 10}}")
        Map<String, Map<String, Object>> options,

        @Schema(description = "At most this many questions (0 or absent: all)")
        Integer limit,

        @Schema(description = "Questions in flight at once (default 4)")
        Integer concurrency,

        @Schema(description = "Chunks per search probe (default 10)")
        Integer searchK,

        @Schema(
                description =
                        "Also have the LLM judge (role judge) grade every answer as correct or incorrect; needs an LLM configured")
        Boolean judge) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    boolean judged() {
        return Boolean.TRUE.equals(judge);
    }

    /** The items to run, from the inline items or the dataset file; a problem names the field at fault. */
    List<EvalItem> load(Path dataDir) {
        if (dataset == null || !Datasets.NAMES.contains(dataset)) {
            throw ApiProblem.invalid("dataset", "dataset must be one of " + Datasets.NAMES);
        }
        int max = limit == null ? 0 : limit;
        if (max < 0) {
            throw ApiProblem.invalid("limit", "limit must be >= 0");
        }
        if (items != null && !items.isEmpty()) {
            if (!dataset.equals("jsonl")) {
                throw ApiProblem.invalid("items", "inline items are in the generic format: use dataset jsonl");
            }
            List<JsonNode> records = new ArrayList<>();
            items.forEach(i -> records.add(JSON.valueToTree(i)));
            try {
                List<EvalItem> loaded = Datasets.jsonl(records);
                return max > 0 && loaded.size() > max ? loaded.subList(0, max) : loaded;
            } catch (IllegalArgumentException e) {
                throw ApiProblem.invalid("items", e.getMessage());
            }
        }
        if (path == null || path.isBlank()) {
            throw ApiProblem.invalid("path", "give a path (relative to the data folder) or inline items");
        }
        Path file = DataFolder.resolve(dataDir, path, dataset.equals("comorag"));
        try {
            return Datasets.load(dataset, file, max);
        } catch (RuntimeException e) {
            throw ApiProblem.invalid(
                    "path",
                    "cannot load " + path + " as " + dataset + ": " + DataFolder.withoutContent(e.getMessage()));
        }
    }

    /**
     * Refuses, before anything is stored, what would otherwise fail every question of the run (or,
     * for a concurrency below one, stall it): unknown or unavailable strategies, bad bounds, and
     * options a strategy rejects. Option problems name their place under {@code options.<strategy>}.
     */
    void checkRun(Strategies known) {
        if (strategies == null || strategies.isEmpty()) {
            throw ApiProblem.invalid("strategies", "name at least one strategy");
        }
        for (int i = 0; i < strategies.size(); i++) {
            String name = strategies.get(i);
            String field = "strategies[" + i + "]";
            if (name == null || name.isBlank()) {
                throw ApiProblem.invalid(field, "a strategy name must not be blank");
            }
            if (strategies.indexOf(name) != i) {
                throw ApiProblem.invalid(field, "strategy '" + name + "' is named twice");
            }
            if (name.startsWith(EvalRunner.SEARCH_PREFIX)) {
                if (!SearchMode.wireNames().contains(name.substring(EvalRunner.SEARCH_PREFIX.length()))) {
                    throw ApiProblem.invalid(
                            field,
                            "a search probe is one of "
                                    + SearchMode.wireNames().stream()
                                            .map(m -> EvalRunner.SEARCH_PREFIX + m)
                                            .collect(java.util.stream.Collectors.joining(", ")));
                }
            } else {
                rerooted(field, "strategy", () -> known.require(name));
            }
        }
        if (concurrency != null && concurrency < 1) {
            throw ApiProblem.invalid("concurrency", "concurrency must be at least 1");
        }
        if (searchK != null && (searchK < 1 || searchK > 100)) {
            throw ApiProblem.invalid("searchK", "searchK must be between 1 and 100");
        }
        if (options != null) {
            options.forEach((name, values) -> {
                if (values == null) {
                    throw ApiProblem.invalid("options." + name, "give an object of options, or leave the strategy out");
                }
                if (strategies.contains(name) && !name.startsWith(EvalRunner.SEARCH_PREFIX)) {
                    rerooted(
                            "options." + name,
                            "options",
                            () -> known.require(name).validate(new QuestionOptions(values)));
                }
            });
        }
    }

    /** Runs a check written for a question's fields, naming what it refuses under this request's {@code root}. */
    private static void rerooted(String root, String questionField, Runnable check) {
        try {
            check.run();
        } catch (ApiProblem problem) {
            String field = problem.field() == null || !problem.field().startsWith(questionField)
                    ? root
                    : root + problem.field().substring(questionField.length());
            throw new ApiProblem(problem.kind(), problem.type(), problem.title(), problem.getMessage(), field);
        }
    }

    EvalRunner.Request run(List<EvalItem> loaded) {
        return new EvalRunner.Request(
                dataset,
                loaded,
                List.copyOf(strategies),
                options,
                concurrency == null ? 4 : Math.min(32, concurrency),
                searchK == null ? 10 : searchK,
                null,
                null);
    }
}
