package io.lorekeeper.memory;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.ai.embedding.EmbeddingModel;

import dev.langchain4j.model.embedding.onnx.PoolingMode;
import io.lorekeeper.evaluator.Datasets;
import io.lorekeeper.evaluator.EvalItem;
import io.lorekeeper.evaluator.Metrics;
import io.lorekeeper.text.TokenCounter;

/**
 * Recall and query latency of each in-process model and of their combinations, on one run over the
 * same data: the natural questions over the three novels, against three databases that hold the same
 * novels' chunks embedded by bge-small-en-v1.5, e5-small-v2 and all-MiniLM-L6-v2 (made by the novel
 * evaluation with {@code --lorekeeper.embedding.model.location}, docs/evaluation.md). Each model ranks
 * a novel's chunks by cosine distance to its own embedding of the question (exact, no index); a
 * combination fuses the models' rankings by reciprocal rank (k = 60, as hybrid search fuses). Scored as
 * the search probes are: answer in context of the hits that fit 1,500 tokens, and whether one of the
 * first 30 hits holds it. Run with {@code -Dlorekeeper.measure.combination=true} (and
 * {@code -Dlorekeeper.measure.jdbc=jdbc:postgresql://localhost:55432/} where the databases are).
 */
@EnabledIfSystemProperty(
        named = "lorekeeper.measure.combination",
        matches = "true",
        disabledReason = "opt-in measurement: needs the three novel databases of docs/evaluation.md")
class ModelCombinationMeasureTest {

    private static final int DEPTH = 60;
    private static final int BUDGET = 1_500;
    private static final int RRF_K = 60;

    record Model(String name, String database, String classpath, PoolingMode pooling, String queryPrefix) {}

    private static final List<Model> MODELS = List.of(
            new Model(
                    "bge",
                    "lorekeeper_novels",
                    "bge-small-en-v1.5-q",
                    PoolingMode.CLS,
                    "Represent this sentence for searching relevant passages: "),
            new Model("e5", "lorekeeper_novels_e5", "e5-small-v2-q", PoolingMode.MEAN, "query: "),
            new Model("minilm", "lorekeeper_novels_minilm", "all-minilm-l6-v2-q", PoolingMode.MEAN, ""));

    /** A chunk by ordinal, the same in each database: the novels are segmented the same way whatever the model. */
    record Chunk(int ordinal, String text) {}

    @Test
    void eachModelAndTheirCombinations() throws Exception {
        String jdbc = System.getProperty("lorekeeper.measure.jdbc", "jdbc:postgresql://localhost:55432/");
        List<EvalItem> items = Datasets.load("jsonl", Path.of("evaluator", "data", "novel-questions.jsonl"), 0);
        Map<String, Map<String, List<Integer>>> rankings = new HashMap<>(); // model -> item -> ordinals
        Map<String, Map<Integer, String>> texts = new HashMap<>(); // title -> ordinal -> text
        Map<String, double[]> latency = new LinkedHashMap<>();
        for (Model m : MODELS) {
            try (Connection db = DriverManager.getConnection(jdbc + m.database(), "postgres", "");
                    OnnxEmbeddingModel model = new OnnxEmbeddingModel(
                            ModelFiles.resolve("classpath:" + m.classpath(), ""), m.pooling(), 1)) {
                db.createStatement().execute("SET enable_indexscan = off"); // exact nearest chunks, not HNSW's
                Map<String, String> documents = documents(db);
                double[] millis = new double[items.size()];
                Map<String, List<Integer>> ranked = new HashMap<>();
                for (int i = 0; i < items.size(); i++) {
                    EvalItem item = items.get(i);
                    String title = (String) item.document().get("title");
                    texts.computeIfAbsent(title, t -> chunks(db, documents.get(t)));
                    long started = System.nanoTime();
                    float[] query = embed(model, m.queryPrefix() + item.question());
                    millis[i] = (System.nanoTime() - started) / 1e6;
                    ranked.put(item.id(), nearest(db, documents.get(title), query));
                }
                rankings.put(m.name(), ranked);
                Arrays.sort(millis);
                latency.put(m.name(), millis);
            }
        }
        List<List<String>> combinations = new ArrayList<>(List.of(
                List.of("bge"),
                List.of("e5"),
                List.of("minilm"),
                List.of("bge", "e5"),
                List.of("bge", "minilm"),
                List.of("e5", "minilm"),
                List.of("bge", "e5", "minilm")));
        // the service's own keyword ranking (BM25 over its index), dumped from its search API: with it, the
        // combinations hybrid search could make (keyword + bge is hybrid search today)
        String keyword = System.getProperty("lorekeeper.measure.keyword-rankings", "");
        if (!keyword.isBlank()) {
            Map<String, List<Integer>> byItem = new HashMap<>();
            tools.jackson.databind.json.JsonMapper.builder()
                    .build()
                    .readTree(Path.of(keyword).toFile())
                    .properties()
                    .forEach(e -> byItem.put(
                            e.getKey(),
                            e.getValue().valueStream().map(n -> n.asInt()).toList()));
            rankings.put("keyword", byItem);
            combinations.addAll(List.of(
                    List.of("keyword"),
                    List.of("keyword", "bge"),
                    List.of("keyword", "e5"),
                    List.of("keyword", "bge", "e5"),
                    List.of("keyword", "e5", "minilm"),
                    List.of("keyword", "bge", "e5", "minilm")));
        }
        System.out.println(
                "| models | answer in context, 1,500 tokens: GE / PP / MD / all | answer in first 30 hits |");
        System.out.println("|---|---|---:|");
        for (List<String> combination : combinations) {
            Map<String, double[]> inContext = new TreeMap<>();
            double in30 = 0;
            for (EvalItem item : items) {
                List<Integer> fused = fused(combination.stream()
                        .map(name -> rankings.get(name).get(item.id()))
                        .toList());
                Map<Integer, String> chunks = texts.get((String) item.document().get("title"));
                double[] cell = inContext.computeIfAbsent(item.category(), c -> new double[2]);
                cell[0] += Metrics.answerInContext(item.answers(), budgeted(fused, chunks));
                cell[1]++;
                in30 += Metrics.answerInContext(
                        item.answers(),
                        fused.stream().limit(30).map(chunks::get).toList());
            }
            double all = inContext.values().stream().mapToDouble(c -> c[0]).sum() / items.size();
            StringBuilder row = new StringBuilder("| " + String.join(" + ", combination) + " | ");
            for (String category : List.of("great-expectations", "pride-and-prejudice", "moby-dick")) {
                double[] c = inContext.get(category);
                row.append(c == null ? "–" : String.format("%.3f", c[0] / c[1])).append(" / ");
            }
            row.append(String.format("**%.3f** | %.3f |", all, in30 / items.size()));
            System.out.println(row);
        }
        latency.forEach((name, millis) -> System.out.printf(
                "query embedding %s: p50 %.1f ms, p95 %.1f ms%n",
                name, millis[millis.length / 2], millis[(int) (millis.length * 0.95)]));
    }

    private static float[] embed(EmbeddingModel model, String text) {
        return model.embed(text);
    }

    private static List<String> budgeted(List<Integer> ranking, Map<Integer, String> chunks) {
        List<String> context = new ArrayList<>();
        int tokens = 0;
        for (int ordinal : ranking) {
            String text = chunks.get(ordinal);
            int more = TokenCounter.count(text);
            if (tokens + more > BUDGET) {
                break;
            }
            context.add(text);
            tokens += more;
        }
        return context;
    }

    /** Reciprocal-rank fusion; one ranking alone is returned as it is. */
    static List<Integer> fused(List<List<Integer>> rankings) {
        if (rankings.size() == 1) {
            return rankings.getFirst();
        }
        Map<Integer, Double> score = new HashMap<>();
        for (List<Integer> ranking : rankings) {
            for (int r = 0; r < ranking.size(); r++) {
                score.merge(ranking.get(r), 1.0 / (RRF_K + r + 1), Double::sum);
            }
        }
        return score.entrySet().stream()
                .sorted(Map.Entry.<Integer, Double>comparingByValue()
                        .reversed()
                        .thenComparing(Map.Entry.comparingByKey()))
                .map(Map.Entry::getKey)
                .toList();
    }

    private static Map<String, String> documents(Connection db) throws Exception {
        Map<String, String> ids = new HashMap<>();
        try (ResultSet rs = db.createStatement().executeQuery("SELECT id::text, title FROM document")) {
            while (rs.next()) {
                ids.put(rs.getString(2), rs.getString(1));
            }
        }
        return ids;
    }

    private static Map<Integer, String> chunks(Connection db, String document) {
        Map<Integer, String> chunks = new HashMap<>();
        try (PreparedStatement s = db.prepareStatement("SELECT ordinal, text FROM chunk WHERE document_id = ?::uuid")) {
            s.setString(1, document);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    chunks.put(rs.getInt(1), rs.getString(2));
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return chunks;
    }

    private static List<Integer> nearest(Connection db, String document, float[] query) throws Exception {
        List<Integer> ordinals = new ArrayList<>();
        try (PreparedStatement s = db.prepareStatement("SELECT ordinal FROM chunk WHERE document_id = ?::uuid"
                + " ORDER BY embedding <=> ?::vector, ordinal LIMIT " + DEPTH)) {
            s.setString(1, document);
            s.setString(2, Arrays.toString(query).replace(" ", ""));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ordinals.add(rs.getInt(1));
                }
            }
        }
        return ordinals;
    }
}
