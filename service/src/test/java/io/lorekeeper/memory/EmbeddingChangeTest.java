package io.lorekeeper.memory;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.github.tomakehurst.wiremock.WireMockServer;

import io.lorekeeper.platform.RetryLaterException;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.TestDatabase;
import io.lorekeeper.support.TestDatabaseInitializer;
import tools.jackson.databind.JsonNode;

/**
 * Moving a running service's vectors from bge-small-en-v1.5 to all-MiniLM-L6-v2 (both in process):
 * search answers throughout and with the old vectors until the switch; a job stopped half-way resumes
 * after the documents it filled; afterwards every vector is the one a fresh ingest with the new model
 * makes. A change cancelled, or failed by an endpoint that answers vectors of the wrong dimension,
 * leaves the stored vectors as they were.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "lorekeeper.embedding.alternatives.all-minilm-l6-v2.location=classpath:all-minilm-l6-v2-q",
            "lorekeeper.embedding.alternatives.all-minilm-l6-v2.pooling=mean",
            "lorekeeper.embedding.follow-interval=300ms"
        })
@ContextConfiguration(initializers = EmbeddingChangeTest.Database.class)
@Import({Api.Config.class, EmbeddingChangeTest.Pausing.Config.class})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EmbeddingChangeTest {

    private static final String MINI_LM = "all-minilm-l6-v2";
    private static final String QUERY = "who rang the fog bell";
    /** A stand-in endpoint that answers 8-dimensional vectors where 384 are configured. */
    private static final WireMockServer wrong = started();

    private static WireMockServer started() {
        WireMockServer server = new WireMockServer(options().dynamicPort());
        server.start();
        server.stubFor(
                post(urlEqualTo("/v1/embeddings"))
                        .willReturn(
                                aResponse()
                                        .withHeader("Content-Type", "application/json")
                                        .withBody(
                                                "{\"object\":\"list\",\"model\":\"m\",\"usage\":{\"prompt_tokens\":1,\"total_tokens\":1},"
                                                        + "\"data\":[{\"object\":\"embedding\",\"index\":0,\"embedding\":[1,0,0,0,0,0,0,0]}]}")));
        return server;
    }

    @DynamicPropertySource
    static void wrongEndpoint(DynamicPropertyRegistry registry) {
        registry.add("lorekeeper.embedding.alternatives.eight-wide.endpoint.base-url", () -> wrong.baseUrl() + "/v1");
        registry.add("lorekeeper.embedding.alternatives.eight-wide.endpoint.model", () -> "m");
        registry.add("lorekeeper.embedding.alternatives.eight-wide.endpoint.max-retries", () -> 0);
    }

    @AfterAll
    static void stop() {
        wrong.stop();
    }

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Pausing pausing;

    @Autowired
    Embeddings embeddings;

    static final List<UUID> documents = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void threeDocuments() {
        pausing.reset();
        if (documents.isEmpty()) {
            documents.add(api.ingest(aText("The keeper Hamish rang the fog bell at dusk. The lamp was lit at six.")
                    .build()));
            documents.add(api.ingest(aText("Apples ripened in the orchard and the farmer pressed cider in October.")
                    .build()));
            documents.add(
                    api.ingest(aText("The ferry to the island left at noon; the captain counted the sheep aboard.")
                            .build()));
        }
    }

    @Test
    @Order(1)
    void aCancelledChangeLeavesTheVectorsAsTheyWere() throws Exception {
        String before = vectorsOf(documents.getFirst());
        pausing.pauseAt(documents.get(1));

        JsonNode change = api.post("/v1/embedding-model/changes", Map.of("model", MINI_LM))
                .json();
        assertThat(pausing.paused.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(api.post("/v1/embedding-model/changes", Map.of("model", MINI_LM))
                        .status())
                .as("one change at a time")
                .isEqualTo(409);
        JsonNode cancelled = api.post(
                        "/v1/embedding-model/changes/" + change.get("id").asString() + "/cancel", Map.of())
                .json();
        pausing.resume.countDown();

        assertThat(cancelled.get("state").asString()).isEqualTo("CANCELLED");
        assertThat(nextColumns()).isZero();
        assertThat(vectorsOf(documents.getFirst())).isEqualTo(before);
        assertThat(api.get("/v1/embedding-model").json().get("name").asString()).isEqualTo("bge-small-en-v1.5");
        assertThat(api.post("/v1/embedding-model/changes", Map.of("model", "no-such-model"))
                        .status())
                .isEqualTo(400);
        assertThat(api.post("/v1/embedding-model/changes", Map.of("model", "bge-small-en-v1.5"))
                        .status())
                .as("already the stored model")
                .isEqualTo(409);
    }

    @Test
    @Order(2)
    void anEndpointAnsweringTheWrongDimensionFailsTheChangeAndLosesNothing() {
        String before = vectorsOf(documents.getFirst());
        JsonNode change = api.post("/v1/embedding-model/changes", Map.of("model", "eight-wide"))
                .json();
        assertThat(api.post("/v1/embedding-model/changes", Map.of("model", MINI_LM))
                        .status())
                .as("one change at a time")
                .isIn(409, 202);

        JsonNode failed = awaitState(change.get("id").asString(), "FAILED");

        assertThat(failed.get("failure").asString()).contains("8-dimensional vectors where 384 are expected");
        assertThat(nextColumns()).isZero();
        assertThat(vectorsOf(documents.getFirst())).isEqualTo(before);
        assertThat(search().get("hits").get(0).get("documentId").asString())
                .isEqualTo(documents.getFirst().toString());
    }

    @Test
    @Order(3)
    void theVectorsMoveToTheNewModelWhileSearchAnswersThroughout() throws Exception {
        UUID keeper = documents.getFirst();
        comoRagMemoryOf(keeper);
        List<String> hitsBefore = hitTexts(search());
        String scoresBefore = search().get("hits").toString();
        pausing.pauseAt(documents.get(1));
        pausing.interruptOnce.set(true);
        List<Integer> statuses = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean searching = new AtomicBoolean(true);
        Thread searcher = Thread.ofVirtual().start(() -> {
            while (searching.get()) {
                Api.Response r = api.post(
                        "/v1/search", Map.of("documentIds", documents, "query", QUERY, "mode", "vector", "k", 3));
                statuses.add(r.status());
                if (r.status() == 200 && r.json().get("hits").isEmpty()) {
                    statuses.add(-1);
                }
            }
        });

        JsonNode change = api.post("/v1/embedding-model/changes", Map.of("model", MINI_LM))
                .json();
        String id = change.get("id").asString();
        assertThat(pausing.paused.await(60, TimeUnit.SECONDS)).isTrue();
        JsonNode filling = api.get("/v1/embedding-model/changes/" + id).json();
        assertThat(filling.get("state").asString()).isEqualTo("FILLING");
        assertThat(filling.get("documentsDone").asInt()).isEqualTo(1);
        assertThat(filling.get("documentsTotal").asInt()).isGreaterThanOrEqualTo(3);
        assertThat(search().get("hits").toString())
                .as("the old vectors answer until the switch")
                .isEqualTo(scoresBefore);
        pausing.resume.countDown(); // the job stops here (re-queued) and resumes a second later

        JsonNode switched = awaitState(id, "SWITCHED");
        searching.set(false);
        searcher.join();

        assertThat(pausing.filled.get(documents.getFirst()))
                .as("the resumed job did not fill the document it had done again")
                .isEqualTo(1);
        assertThat(switched.get("documentsDone").asInt())
                .isEqualTo(switched.get("documentsTotal").asInt());
        assertThat(statuses).isNotEmpty().allMatch(s -> s == 200);
        assertThat(nextColumns()).isZero();
        JsonNode model = api.get("/v1/embedding-model").json();
        assertThat(model.get("name").asString()).isEqualTo(MINI_LM);
        assertThat(model.get("generation").asLong()).isEqualTo(2);
        awaitReplicaOn(MINI_LM);

        // a document ingested now is embedded with the new model: the moved one must equal it
        UUID fresh = api.ingest(aText("The keeper Hamish rang the fog bell at dusk. The lamp was lit at six.")
                .build());
        assertVectorsClose(vectorsOf(documents.getFirst()), vectorsOf(fresh));
        assertVectorsClose(sentenceVectorsOf(documents.getFirst()), sentenceVectorsOf(fresh));
        assertThat(hitTexts(search()))
                .as("the same passages, ranked by the new model")
                .containsAll(hitsBefore);
        assertThat(jdbc.sql(
                                "SELECT count(*) FROM pg_indexes WHERE indexname IN ('chunk_embedding_hnsw_idx', 'chunk_unembedded_idx')")
                        .query(Integer.class)
                        .single())
                .as("the live column has its indexes")
                .isEqualTo(2);
    }

    /** A ComoRAG memory as its stages would leave it: one unit, one fact, one summary and the entity graph. */
    private void comoRagMemoryOf(UUID document) {
        String chunk = one("SELECT embedding::text FROM chunk WHERE document_id = ? AND ordinal = 0", document);
        jdbc.sql("""
                        INSERT INTO comorag_unit (document_id, ordinal, first_chunk, last_chunk, page_ordinal,
                                                  start_offset, end_offset, token_count, embedding)
                        VALUES (?, 0, 0, 0, 0, 0, 10, 10, CAST(? AS vector))""").params(document, chunk).update();
        jdbc.sql("""
                        INSERT INTO comorag_triple (document_id, unit_ordinal, subject, predicate, object, embedding)
                        VALUES (?, 0, 'Hamish', 'rang', 'fog bell', CAST(? AS vector))""").params(document, chunk).update();
        jdbc.sql("""
                        INSERT INTO comorag_summary (document_id, layer, level, ordinal, member_key, units,
                                                     start_offset, end_offset, text, embedding)
                        VALUES (?, 'semantic', 1, 0, 'u:0', '{0}', 0, 10, 'A keeper rings a bell.', CAST(? AS vector))""").params(document, chunk).update();
        jdbc.sql("""
                        INSERT INTO comorag_graph (document_id, entity_count, unit_count, fact_edges, passage_edges,
                                                   synonym_edges, graph)
                        VALUES (?, 1, 1, 0, 1, 0, '\\x00')""").param(document).update();
        jdbc.sql(
                        "INSERT INTO comorag_entity (document_id, node, name, embedding) VALUES (?, 0, 'hamish', CAST(? AS vector))")
                .params(document, chunk)
                .update();
    }

    private String one(String sql, UUID document) {
        return jdbc.sql(sql).param(document).query(String.class).single();
    }

    private void awaitReplicaOn(String name) throws InterruptedException {
        for (int i = 0; i < 100 && !embeddings.modelName().equals(name); i++) {
            Thread.sleep(100);
        }
        assertThat(embeddings.modelName()).isEqualTo(name);
    }

    private JsonNode awaitState(String id, String state) {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        JsonNode change = null;
        while (System.nanoTime() < deadline) {
            change = api.get("/v1/embedding-model/changes/" + id).json();
            if (change.get("state").asString().equals(state)) {
                return change;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("the change never became " + state + ": " + change);
    }

    private JsonNode search() {
        Api.Response r = api.post(
                "/v1/search", Map.of("documentIds", documents.subList(0, 3), "query", QUERY, "mode", "vector", "k", 3));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private static List<String> hitTexts(JsonNode found) {
        List<String> texts = new ArrayList<>();
        found.get("hits").forEach(h -> texts.add(h.get("text").asString()));
        return texts;
    }

    private int nextColumns() {
        return jdbc.sql("SELECT count(*) FROM information_schema.columns WHERE column_name = 'embedding_next'")
                .query(Integer.class)
                .single();
    }

    private String vectorsOf(UUID document) {
        return String.join(
                "\n",
                jdbc.sql("SELECT embedding::text FROM chunk WHERE document_id = ? ORDER BY ordinal")
                        .param(document)
                        .query(String.class)
                        .list());
    }

    private String sentenceVectorsOf(UUID document) {
        List<String> rows = new ArrayList<>();
        jdbc.sql("SELECT embedding FROM sentence_vector WHERE document_id = ? ORDER BY start_offset")
                .param(document)
                .query(rs -> {
                    rows.add(java.util.Arrays.toString(SentenceVectors.decode(rs.getBytes(1)))
                            .replace(" ", ""));
                });
        return String.join("\n", rows);
    }

    private static void assertVectorsClose(String moved, String fresh) {
        List<float[]> a = parse(moved);
        List<float[]> b = parse(fresh);
        assertThat(a).hasSameSizeAs(b).isNotEmpty();
        for (int i = 0; i < a.size(); i++) {
            assertThat(a.get(i).length).isEqualTo(b.get(i).length);
            for (int j = 0; j < a.get(i).length; j++) {
                assertThat((double) a.get(i)[j]).isCloseTo(b.get(i)[j], org.assertj.core.data.Offset.offset(1e-3));
            }
        }
    }

    private static List<float[]> parse(String rows) {
        List<float[]> out = new ArrayList<>();
        for (String row : rows.split("\n")) {
            String[] parts = row.replace("[", "").replace("]", "").split(",");
            float[] v = new float[parts.length];
            for (int i = 0; i < parts.length; i++) {
                v[i] = Float.parseFloat(parts[i].strip());
            }
            out.add(v);
        }
        return out;
    }

    /**
     * A vector set of no table that watches the change's job: it can hold the job at a document (to look at
     * the service mid-change) and then stop it there once, as a replica that died would, which db-scheduler
     * re-queues; it counts how often each document was filled.
     */
    static final class Pausing implements VectorSet {
        final Map<UUID, Integer> filled = new ConcurrentHashMap<>();
        final AtomicBoolean interruptOnce = new AtomicBoolean();
        volatile UUID pauseAt;
        volatile CountDownLatch paused = new CountDownLatch(1);
        volatile CountDownLatch resume = new CountDownLatch(1);

        void reset() {
            pauseAt = null;
            interruptOnce.set(false);
            filled.clear();
            paused = new CountDownLatch(1);
            resume = new CountDownLatch(1);
        }

        void pauseAt(UUID document) {
            pauseAt = document;
        }

        @Override
        public List<String> tables() {
            return List.of();
        }

        @Override
        public int order() {
            return 0;
        }

        @Override
        public void fill(UUID documentId, Function<List<String>, List<float[]>> embed) {
            if (documentId.equals(pauseAt)) {
                pauseAt = null;
                paused.countDown();
                try {
                    resume.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (interruptOnce.getAndSet(false)) {
                    throw new RetryLaterException("stopped half-way by the test", Duration.ofSeconds(1));
                }
            }
            filled.merge(documentId, 1, Integer::sum);
        }

        @TestConfiguration
        static class Config {
            @Bean
            Pausing pausing() {
                return new Pausing();
            }
        }
    }

    static class Database implements ApplicationContextInitializer<ConfigurableApplicationContext> {
        @Override
        public void initialize(ConfigurableApplicationContext context) {
            TestDatabaseInitializer.apply(TestDatabase.sibling("embedding_change"), context);
        }
    }
}
