package io.lorekeeper.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Whether GAM's page headers would help retrieval if they reached the index (contextual retrieval:
 * the header prepended to every chunk of its page before embedding and keyword indexing), measured
 * on the LoCoMo dev conversations as evidence recall@10 of vector, BM25 and hybrid search over the
 * same chunks with and without a header.
 *
 * <p>No model writes headers here, so the header is the part of one a model can be sure to write
 * for a conversation page: when it takes place and who takes part (the session's date line and its
 * speakers). Both arms are scored by the same code (in-memory cosine over the real bge-small
 * vectors, BM25 k1 0.9 b 0.4 over PostgreSQL's English lexemes, reciprocal-rank fusion), so the
 * header is the only difference. Run with {@code -Dlorekeeper.measure.headers=true}.
 */
@IntegrationTest
@EnabledIfSystemProperty(named = "lorekeeper.measure.headers", matches = "true")
class HeaderRetrievalMeasurementTest {

    private static final Path LOCOMO = Path.of("..", "shared", "data", "locomo", "locomo10_dev3.json");
    private static final Pattern TURN = Pattern.compile("D\\d+:\\d+");
    private static final int K = 10;

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Embeddings embeddings;

    record Chunk(int ordinal, int page, String text, List<String> turns) {}

    /** Per chunk: its vector and its lexeme counts, for one arm. */
    record Index(
            List<float[]> vectors, List<Map<String, Integer>> lexemes, Map<String, Integer> df, double avgLength) {}

    @Test
    void measure() throws Exception {
        JsonNode samples = JsonMapper.builder().build().readTree(Files.readString(LOCOMO));
        Map<String, double[]> sums = new LinkedHashMap<>();
        int questions = 0;
        for (JsonNode sample : samples) {
            UUID id = api.ingest(
                    Map.of("title", "LoCoMo " + sample.get("sample_id").asString(), "sessions", sessions(sample)));
            List<Chunk> chunks = jdbc.sql(
                            "SELECT ordinal, page_ordinal, text, turn_ids FROM chunk WHERE document_id = ? ORDER BY ordinal")
                    .param(id)
                    .query((rs, n) -> new Chunk(rs.getInt(1), rs.getInt(2), rs.getString(3), List.of((String[])
                            rs.getArray(4).getArray())))
                    .list();
            Map<Integer, String> headers = headers(id, sample);
            Index plain = index(chunks.stream().map(Chunk::text).toList());
            Index headed = index(chunks.stream()
                    .map(c -> headers.getOrDefault(c.page(), "") + "\n" + c.text())
                    .toList());
            for (JsonNode qa : sample.get("qa")) {
                Set<String> gold = new HashSet<>();
                Matcher m = TURN.matcher(qa.path("evidence").toString());
                while (m.find()) {
                    gold.add(m.group());
                }
                if (gold.isEmpty()) {
                    continue;
                }
                questions++;
                String question = qa.get("question").asString();
                float[] query = embeddings.query(question);
                Map<String, Integer> queryTerms = lexemes(question);
                for (var arm : Map.of("plain", plain, "header", headed).entrySet()) {
                    List<Integer> byVector = vector(arm.getValue(), query);
                    List<Integer> byKeyword = bm25(arm.getValue(), queryTerms);
                    record(sums, arm.getKey() + " vector", recall(chunks, byVector, gold));
                    record(sums, arm.getKey() + " keyword", recall(chunks, byKeyword, gold));
                    record(sums, arm.getKey() + " hybrid", recall(chunks, fuse(byVector, byKeyword), gold));
                }
            }
        }
        for (var e : sums.entrySet()) {
            System.out.printf(
                    "HEADERS %s recall@%d: %.3f over %d questions%n",
                    e.getKey(), K, e.getValue()[0] / e.getValue()[1], (int) e.getValue()[1]);
        }
        assertThat(questions).isGreaterThan(400);
    }

    /** The session's date line and its speakers, for each page (one session per page). */
    private Map<Integer, String> headers(UUID document, JsonNode sample) {
        JsonNode conversation = sample.get("conversation");
        String speakers = conversation.get("speaker_a").asString() + " and "
                + conversation.get("speaker_b").asString();
        Map<Integer, String> out = new HashMap<>();
        String text = jdbc.sql("SELECT text FROM document_text WHERE document_id = ?")
                .param(document)
                .query(String.class)
                .single();
        jdbc.sql("SELECT ordinal, start_offset, end_offset FROM page WHERE document_id = ?")
                .param(document)
                .query((rs, n) -> {
                    String page = text.substring(rs.getInt(2), rs.getInt(3));
                    String dateLine = page.startsWith("[Session ") ? page.substring(0, page.indexOf(']') + 1) : "";
                    out.put(rs.getInt(1), dateLine + " A conversation between " + speakers + ".");
                    return null;
                })
                .list();
        return out;
    }

    private Index index(List<String> texts) {
        List<float[]> vectors = embeddings.passages(texts);
        List<Map<String, Integer>> lexemes = new ArrayList<>();
        Map<String, Integer> df = new HashMap<>();
        long total = 0;
        for (String text : texts) {
            Map<String, Integer> counts = lexemes(text);
            lexemes.add(counts);
            counts.keySet().forEach(l -> df.merge(l, 1, Integer::sum));
            total += counts.values().stream().mapToInt(Integer::intValue).sum();
        }
        return new Index(vectors, lexemes, df, Math.max(1.0, (double) total / texts.size()));
    }

    /** PostgreSQL's English lexemes of the text with their occurrence counts, as the keyword index sees them. */
    private Map<String, Integer> lexemes(String text) {
        Map<String, Integer> out = new HashMap<>();
        jdbc.sql("SELECT u.lexeme, coalesce(array_length(u.positions, 1), 1) FROM unnest(to_tsvector('english', ?)) u")
                .param(text)
                .query((rs, n) -> out.put(rs.getString(1), rs.getInt(2)))
                .list();
        return out;
    }

    private static List<Integer> vector(Index index, float[] query) {
        List<Integer> order = new ArrayList<>();
        double[] scores = new double[index.vectors().size()];
        for (int i = 0; i < scores.length; i++) {
            scores[i] = cosine(index.vectors().get(i), query);
            order.add(i);
        }
        order.sort(Comparator.comparingDouble(i -> -scores[i]));
        return order.subList(0, Math.min(3 * K, order.size()));
    }

    private static List<Integer> bm25(Index index, Map<String, Integer> query) {
        int n = index.lexemes().size();
        double[] scores = new double[n];
        for (int i = 0; i < n; i++) {
            Map<String, Integer> doc = index.lexemes().get(i);
            double length = doc.values().stream().mapToInt(Integer::intValue).sum();
            for (String term : query.keySet()) {
                Integer tf = doc.get(term);
                if (tf != null) {
                    int df = index.df().get(term);
                    double idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
                    scores[i] += idf * tf * 1.9 / (tf + 0.9 * (1 - 0.4 + 0.4 * length / index.avgLength()));
                }
            }
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (scores[i] > 0) {
                order.add(i);
            }
        }
        order.sort(Comparator.comparingDouble(i -> -scores[i]));
        return order.subList(0, Math.min(3 * K, order.size()));
    }

    private static List<Integer> fuse(List<Integer> a, List<Integer> b) {
        Map<Integer, Double> scores = new HashMap<>();
        for (List<Integer> ranking : List.of(a, b)) {
            for (int r = 0; r < ranking.size(); r++) {
                scores.merge(ranking.get(r), 1.0 / (60 + r + 1), Double::sum);
            }
        }
        return scores.entrySet().stream()
                .sorted(Map.Entry.<Integer, Double>comparingByValue().reversed())
                .map(Map.Entry::getKey)
                .toList();
    }

    private static double recall(List<Chunk> chunks, List<Integer> ranked, Set<String> gold) {
        Set<String> found = new HashSet<>();
        ranked.stream().limit(K).forEach(i -> found.addAll(chunks.get(i).turns()));
        return (double) gold.stream().filter(found::contains).count() / gold.size();
    }

    private static void record(Map<String, double[]> sums, String key, double value) {
        double[] s = sums.computeIfAbsent(key, k -> new double[2]);
        s[0] += value;
        s[1]++;
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }

    private static List<Map<String, Object>> sessions(JsonNode sample) {
        JsonNode conversation = sample.get("conversation");
        List<Map<String, Object>> sessions = new ArrayList<>();
        for (int n = 1; conversation.has("session_" + n + "_date_time"); n++) {
            List<Map<String, Object>> turns = new ArrayList<>();
            JsonNode session = conversation.get("session_" + n);
            if (session != null) {
                session.forEach(t -> turns.add(Map.of(
                        "id",
                        t.get("dia_id").asString(),
                        "speaker",
                        t.get("speaker").asString(),
                        "text",
                        t.get("text").asString())));
            }
            if (!turns.isEmpty()) {
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("id", String.valueOf(n));
                s.put(
                        "dateTime",
                        conversation.get("session_" + n + "_date_time").asString());
                s.put("turns", turns);
                sessions.add(s);
            }
        }
        return sessions;
    }
}
