package io.lorekeeper.comorag;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.document.Documents;
import io.lorekeeper.llm.FakeOpenAi;
import io.lorekeeper.llm.FakeOpenAiTest;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.SharedData;
import io.lorekeeper.text.TokenCounter;
import tools.jackson.databind.JsonNode;

/**
 * ComoRAG over a real novel through the service: chapters VII and VIII of Great Expectations (about
 * 12K tokens, where Pip first goes to Miss Havisham's; 60-80 s on two shared cores, most of it the
 * embedding and GAM stages every {@code deep} upload runs; {@code -Dlorekeeper.comorag.novel=all}
 * takes the whole novel, about 250K tokens and 15 minutes)
 * uploaded with the {@code deep} profile, so that ingestion builds every layer (units, triples and
 * the veridical graph, the semantic mixture, the episodic windows), then one question, all through
 * the real OpenAI client stack against {@link ReadingStandIn}, whose triples are the names each
 * sentence of a unit pairs. Checks that the triples come from the text, that each citation quotes
 * the source at its offsets, and that the trace names the PageRank's seeds and the top passages
 * with their scores; prints the index's build time and calls per layer.
 */
@FakeOpenAiTest
class ComoRagNovelOverHttpTest {

    static final String QUESTION = "What game did Miss Havisham tell Estella to play with Pip?";

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Documents documents;

    private final FakeOpenAi fake = FakeOpenAi.get();

    @Test
    void buildsEveryLayerOfANovelAndAnswersWithAVerifiedCitationAndTheGraphRankingInTheTrace() throws Exception {
        Path file = SharedData.require("novels/great_expectations_pg1400.txt");
        String novel = Files.readString(file).replace("\r\n", "\n");
        boolean whole = "all".equals(System.getProperty("lorekeeper.comorag.novel"));
        String text = whole
                ? novel
                : novel.substring(novel.indexOf("\nChapter VII\n"), novel.indexOf("\nChapter IX\n"))
                        .strip();
        ReadingStandIn.install(fake);

        long started = System.nanoTime();
        Api.Response posted = api.post(
                "/v1/documents",
                Map.of(
                        "title",
                        whole ? "Great Expectations" : "Great Expectations, chapters VII-VIII",
                        "text",
                        text,
                        "profile",
                        "deep"));
        assertThat(posted.status()).as(posted.body()).isIn(200, 202);
        UUID doc = UUID.fromString(posted.json().get("id").asString());
        api.awaitDocument(doc, "READY", Duration.ofMinutes(30));
        double seconds = (System.nanoTime() - started) / 1e9;
        JsonNode view = ComoRagFixtures.awaitStages(api, doc, "DONE");
        for (JsonNode stage : view.get("stages")) {
            assertThat(stage.get("status").asString()).as(stage.toString()).isEqualTo("DONE");
        }
        report(doc, view.get("tokenCount").asInt(), seconds);

        String stored = documents.text(doc);
        int units = count("SELECT count(*) FROM comorag_unit WHERE document_id = ?", doc);
        assertThat(units).as("units of about 512 tokens").isGreaterThan(TokenCounter.count(text) / 600);
        // every triple pairs two names its unit's text states
        List<String[]> triples = jdbc.sql("""
                        SELECT t.subject, t.predicate, t.object, u.start_offset, u.end_offset
                        FROM comorag_triple t JOIN comorag_unit u
                          ON u.document_id = t.document_id AND u.ordinal = t.unit_ordinal
                        WHERE t.document_id = ?""")
                .param(doc)
                .query((rs, n) -> new String[] {
                    rs.getString(1),
                    rs.getString(2),
                    rs.getString(3),
                    stored.substring(rs.getInt(4), rs.getInt(5)).replaceAll("\\s+", " ")
                })
                .list();
        assertThat(triples.size()).isGreaterThan(units);
        assertThat(triples).allSatisfy(t -> assertThat(t[3]).contains(t[0]).contains(t[2]));
        assertThat(triples)
                .as("a fact the novel states between two names")
                .anySatisfy(t -> assertThat(t[0] + " " + t[1] + " " + t[2]).isEqualTo("Miss Havisham to Estella"));
        assertThat(count("SELECT count(*) FROM comorag_summary WHERE document_id = ? AND layer = 'semantic'", doc))
                .isPositive();
        assertThat(count("SELECT count(*) FROM comorag_summary WHERE document_id = ? AND layer = 'episodic'", doc))
                .isPositive();

        long asked = System.nanoTime();
        JsonNode answer = api.ask(
                Map.of("documentIds", List.of(doc), "question", QUESTION, "strategy", "comorag", "waitSeconds", 60));
        System.out.printf(
                "ComoRAG novel question: %.1f s, %d calls%n",
                (System.nanoTime() - asked) / 1e9,
                answer.get("usage").get("calls").asInt());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        JsonNode index = api.traceEvents(answer, "comorag.index").getFirst();
        assertThat(index.get("veridical").asString()).isEqualTo("graph");
        assertThat(index.get("graph").get("factEdges").asInt()).isPositive();
        assertThat(index.get("graph").get("synonymEdges").asInt())
                .as("'Estella' and 'Miss Estella', say")
                .isPositive();
        assertThat(index.get("semanticSummaries").asInt()).isPositive();
        assertThat(index.get("episodicSummaries").asInt()).isPositive();

        // every veridical search ranked by PageRank, and its trace names the seeds and the top passages with scores
        List<JsonNode> veridical = api.traceEvents(answer, "comorag.retrieve").stream()
                .filter(e -> e.get("layer").asString().equals("veridical"))
                .toList();
        assertThat(veridical).hasSizeGreaterThanOrEqualTo(2);
        for (JsonNode search : veridical) {
            JsonNode ranking = search.get("ranking");
            assertThat(ranking.get("mode").asString()).isEqualTo("graph");
            assertThat(ranking.has("fallback")).as(ranking.toString()).isFalse();
            assertThat(ranking.get("seeds")).isNotEmpty();
            assertThat(ranking.get("seeds"))
                    .allSatisfy(s -> assertThat(s.get("weight").asDouble()).isPositive());
            assertThat(ranking.get("passageSeeds").asInt()).isPositive();
            assertThat(ranking.get("pagerankMs").asDouble()).isNotNegative();
            List<Double> scores = new ArrayList<>();
            ranking.get("topPassages").forEach(p -> {
                assertThat(p.get("id").asString()).startsWith("u:" + doc + ":");
                scores.add(p.get("score").asDouble());
            });
            assertThat(scores).isNotEmpty().isSortedAccordingTo((a, b) -> Double.compare(b, a));
            assertThat(scores.getFirst()).isPositive();
            // the layer's items are the ranking's, best first
            assertThat(search.get("items").get(0).get("id").asString())
                    .isEqualTo(ranking.get("topPassages").get(0).get("id").asString());
        }
        JsonNode first = veridical.getFirst();
        assertThat(first.get("probe").asString()).isEqualTo(QUESTION);
        List<String> seeds = new ArrayList<>();
        first.get("ranking").get("seeds").forEach(s -> seeds.add(s.get("entity").asString()));
        // the graph keeps entity names in lower case
        assertThat(seeds).as("the names the question uses").contains("miss havisham", "estella");

        assertThat(answer.get("citations")).isNotEmpty();
        for (JsonNode citation : answer.get("citations")) {
            int start = citation.get("start").asInt();
            int end = citation.get("end").asInt();
            String source = api.get("/v1/documents/" + doc + "/text?start=" + start + "&end=" + end)
                    .json()
                    .get("text")
                    .asString();
            assertThat(source).isEqualTo(citation.get("quote").asString());
            assertThat(source).containsAnyOf("Havisham", "Estella");
            // the cited passage is one the graph ranked and the try was shown
            assertThat(veridical)
                    .anySatisfy(search -> assertThat(search.get("items")).anySatisfy(item -> {
                        assertThat(item.get("start").asInt()).isLessThanOrEqualTo(start);
                        assertThat(item.get("end").asInt()).isGreaterThanOrEqualTo(end);
                    }));
        }
        System.out.printf(
                "ComoRAG novel answer: %s; seeds of the question's search: %s; top passages: %s%n",
                answer.get("answer").asString(),
                first.get("ranking").get("seeds"),
                first.get("ranking").get("topPassages"));
    }

    /** Prints the index's size, build time and calls per layer (the figures docs/benchmarks.md quotes). */
    private void report(UUID doc, int tokens, double seconds) {
        Map<String, Integer> calls = new LinkedHashMap<>();
        jdbc.sql(
                        "SELECT template, count(*) AS n FROM llm_call WHERE document_id = ? GROUP BY template ORDER BY template")
                .param(doc)
                .query()
                .listOfRows()
                .forEach(row -> calls.put((String) row.get("template"), ((Number) row.get("n")).intValue()));
        List<Map<String, Object>> stages = jdbc.sql("""
                        SELECT s.stage, round(extract(epoch FROM (s.updated_at - d.created_at))::numeric, 1) AS ended
                        FROM ingestion_stage s JOIN document d ON d.id = s.document_id
                        WHERE s.document_id = ? ORDER BY s.updated_at""").param(doc).query().listOfRows();
        System.out.printf(
                "ComoRAG novel index: %d tokens, %d units, %d triples, %d semantic and %d episodic summaries;"
                        + " %.1f s from upload to every stage done; calls %s; stages ended, seconds after upload: %s%n",
                tokens,
                count("SELECT count(*) FROM comorag_unit WHERE document_id = ?", doc),
                count("SELECT count(*) FROM comorag_triple WHERE document_id = ?", doc),
                count("SELECT count(*) FROM comorag_summary WHERE document_id = ? AND layer = 'semantic'", doc),
                count("SELECT count(*) FROM comorag_summary WHERE document_id = ? AND layer = 'episodic'", doc),
                seconds,
                calls,
                stages);
    }

    private int count(String sql, UUID doc) {
        return jdbc.sql(sql).param(doc).query(Integer.class).single();
    }
}
