package io.lorekeeper.memory;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionOperations;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.TestDatabase;
import io.lorekeeper.support.TestDatabaseInitializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A deployment on an embeddings endpoint whose model makes 48-dimensional vectors, started on an empty
 * database: every vector column takes the model's dimension (its HNSW index rebuilt with it), documents
 * are embedded and searched by meaning, and a replica on another dimension is refused, changing nothing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ContextConfiguration(initializers = EmbeddingDimensionsTest.Database.class)
@Import(Api.Config.class)
class EmbeddingDimensionsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int DIMENSIONS = 48;
    private static final WireMockServer endpoint = started();

    private static WireMockServer started() {
        WireMockServer server = new WireMockServer(options().dynamicPort().extensions(new HashedWords()));
        server.start();
        server.stubFor(post(urlEqualTo("/v1/embeddings")).willReturn(aResponse().withTransformers(HashedWords.NAME)));
        return server;
    }

    @DynamicPropertySource
    static void embedWithTheStandIn(DynamicPropertyRegistry registry) {
        registry.add("lorekeeper.embedding.endpoint.base-url", () -> endpoint.baseUrl() + "/v1");
        registry.add("lorekeeper.embedding.endpoint.model", () -> "hashed-words");
        registry.add("lorekeeper.embedding.endpoint.dimensions", () -> DIMENSIONS);
        // bge's search instruction would add its own words to every query's bag
        registry.add("lorekeeper.embedding.query-prefix", () -> "");
    }

    @AfterAll
    static void stop() {
        endpoint.stop();
    }

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    TransactionOperations transactions;

    @Test
    void theVectorColumnsFollowTheModelAndSearchFindsByMeaning() {
        List<VectorColumns.Column> columns = new VectorColumns(jdbc).all();
        assertThat(columns)
                .extracting(VectorColumns.Column::qualified)
                .contains("chunk.embedding", "memo.embedding", "comorag_unit.embedding", "comorag_entity.embedding");
        assertThat(columns)
                .allSatisfy(c -> assertThat(c.dimensions()).as(c.qualified()).isEqualTo(DIMENSIONS));
        assertThat(jdbc.sql("SELECT indexdef FROM pg_indexes WHERE indexname = 'chunk_embedding_hnsw_idx'")
                        .query(String.class)
                        .single())
                .as("the index was rebuilt for the new type, not dropped")
                .contains("hnsw");

        UUID lighthouse = api.ingest(aText("The keeper climbed the lighthouse stairs and polished the lens.")
                .build());
        UUID orchard = api.ingest(aText("Apples ripened in the orchard and the farmer pressed cider.")
                .build());

        JsonNode found = api.post(
                        "/v1/search",
                        Map.of("documentIds", List.of(lighthouse, orchard), "query", "cider orchard", "mode", "vector"))
                .json();
        assertThat(found.get("hits").get(0).get("documentId").asString()).isEqualTo(orchard.toString());
        assertThat(jdbc.sql("SELECT vector_dims(embedding) FROM chunk WHERE document_id = ? LIMIT 1")
                        .param(orchard)
                        .query(Integer.class)
                        .single())
                .isEqualTo(DIMENSIONS);

        assertThatThrownBy(() -> StoredEmbeddingModel.check(jdbc, transactions, "endpoint:hashed-words", 64))
                .hasMessageContaining("endpoint:hashed-words (48 dimensions)")
                .hasMessageContaining("configured with endpoint:hashed-words (64 dimensions)");
        assertThatThrownBy(() -> new VectorColumns(jdbc).follow("text-embedding-3-large", 3072))
                .hasMessageContaining("takes 1 to 2000");
        assertThat(new VectorColumns(jdbc).all())
                .allSatisfy(c -> assertThat(c.dimensions()).isEqualTo(DIMENSIONS));
    }

    static class Database implements ApplicationContextInitializer<ConfigurableApplicationContext> {
        @Override
        public void initialize(ConfigurableApplicationContext context) {
            TestDatabaseInitializer.apply(TestDatabase.sibling("dims48"), context);
        }
    }

    /** A bag of hashed lower-case words, normalised: texts sharing words are near, as a real model's would be. */
    static final class HashedWords implements ResponseDefinitionTransformerV2 {
        static final String NAME = "hashed-words";

        @Override
        public ResponseDefinition transform(ServeEvent event) {
            JsonNode input = JSON.readTree(event.getRequest().getBodyAsString()).get("input");
            List<Map<String, Object>> data = new ArrayList<>();
            for (int i = 0; i < input.size(); i++) {
                data.add(Map.of(
                        "object",
                        "embedding",
                        "index",
                        i,
                        "embedding",
                        vector(input.get(i).asString())));
            }
            return new com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder()
                    .withHeader("Content-Type", "application/json")
                    .withBody(JSON.writeValueAsString(Map.of(
                            "object",
                            "list",
                            "data",
                            data,
                            "model",
                            "hashed-words",
                            "usage",
                            Map.of("prompt_tokens", 1, "total_tokens", 1))))
                    .build();
        }

        private static List<Double> vector(String text) {
            double[] v = new double[DIMENSIONS];
            v[0] = 0.01;
            for (String word : text.toLowerCase(java.util.Locale.ROOT).split("[^a-z]+")) {
                if (word.length() > 3) {
                    v[Math.floorMod(word.hashCode(), DIMENSIONS)] += 1;
                }
            }
            double norm = Math.sqrt(java.util.Arrays.stream(v).map(x -> x * x).sum());
            List<Double> out = new ArrayList<>();
            for (double x : v) {
                out.add(x / norm);
            }
            return out;
        }

        @Override
        public String getName() {
            return NAME;
        }

        @Override
        public boolean applyGlobally() {
            return false;
        }
    }
}
