package io.lorekeeper.retrieval;

import static io.lorekeeper.support.TestDocuments.aLighthouseLog;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ContextConfiguration;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.llm.ScriptedLlm;
import io.lorekeeper.memory.FaultInjectingEmbeddingModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.TestDatabase;
import io.lorekeeper.support.TestDatabaseInitializer;
import io.lorekeeper.support.TestStrategies;
import tools.jackson.databind.JsonNode;

/**
 * The listwise rerank by the LLM, under the scripted model: a question's search shows the model its
 * first-stage hits, and the passages reach the strategy in the order the model gave; the trace records
 * the call with its cost and what the reply got wrong; a failed call leaves the first-stage order.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "lorekeeper.llm.base-url=http://scripted.invalid/v1",
            "lorekeeper.llm.api-key=",
            "lorekeeper.llm.cache.enabled=false",
            "lorekeeper.search.rerank.llm=true",
            "lorekeeper.search.rerank.llm-candidates=12"
        })
@ContextConfiguration(initializers = ModelRerankTest.Database.class)
@Import({TestStrategies.class, FaultInjectingEmbeddingModel.Config.class, Api.Config.class, ScriptedLlm.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ModelRerankTest {

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    JdbcClient jdbc;

    UUID lighthouse;

    @BeforeAll
    void ingest() {
        lighthouse = api.ingest(aLighthouseLog(
                        UUID.randomUUID().toString().substring(0, 8), 8, "A grey cat slept on the lighthouse stairs")
                .build());
    }

    @BeforeEach
    void resetModel() {
        model.reset();
    }

    @Test
    @Order(1)
    void theModelsOrderReachesTheStrategyAndTheTraceShowsTheCall() {
        model.on(LlmReranker.TEMPLATE).reply(call -> {
            int cat = passageContaining(call.user(), "grey cat");
            // the cat first, then a number that names no passage and the cat again: both dropped
            return "{\"ranking\": [" + cat + ", 99, " + cat + ", 1]}";
        });
        model.on("rag/answer").reply(call -> """
                {"answer": "on the lighthouse stairs", "confidence": 0.9,
                 "evidence": [{"passage": 1, "quote": "A grey cat slept on the lighthouse stairs"}]}""");

        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(lighthouse),
                "question",
                "Where did the keeper polish the lens?",
                "strategy",
                "rag"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(model.calls(LlmReranker.TEMPLATE)).hasSize(1);
        String shown = model.calls(LlmReranker.TEMPLATE).getFirst().user();
        assertThat(passageContaining(shown, "grey cat"))
                .as("the first stage did not rank the cat first")
                .isGreaterThan(1);
        assertThat(passageContaining(model.calls("rag/answer").getFirst().user(), "grey cat"))
                .as("the model's first choice is the strategy's first passage")
                .isEqualTo(1);
        JsonNode reranked = api.traceEvents(answer, "search.reranked").getFirst();
        assertThat(reranked.get("candidates").asInt()).isGreaterThan(1);
        assertThat(reranked.get("order").get(0).asInt()).isEqualTo(passageContaining(shown, "grey cat") - 1);
        assertThat(reranked.get("dropped").asInt()).isEqualTo(2);
        assertThat(reranked.get("promptTokens").asLong()).isPositive();
        assertThat(reranked.has("skipped")).isFalse();
        assertThat(jdbc.sql("SELECT count(*) FROM llm_call WHERE question_id = ? AND template = ? AND outcome = 'ok'")
                        .params(UUID.fromString(answer.get("id").asString()), LlmReranker.TEMPLATE)
                        .query(Integer.class)
                        .single())
                .as("the call is the question's, counted in its usage")
                .isEqualTo(1);
    }

    @Test
    @Order(2)
    void theSearchApiIsRerankedByTheModelToo() {
        model.on(LlmReranker.TEMPLATE)
                .reply(call -> "{\"ranking\": [" + passageContaining(call.user(), "grey cat") + "]}");

        JsonNode found = api.post(
                        "/v1/search",
                        Map.of("documentIds", List.of(lighthouse), "query", "the keeper polished the lens", "k", 3))
                .json();

        assertThat(model.calls(LlmReranker.TEMPLATE)).hasSize(1);
        assertThat(found.get("hits").get(0).get("text").asString()).contains("grey cat");
        JsonNode rerank = found.get("rerank");
        assertThat(rerank.get("by").asString()).isEqualTo("llm");
        assertThat(rerank.get("candidates").asInt()).isGreaterThan(3);
        assertThat(rerank.get("promptTokens").asLong()).isPositive();
        assertThat(jdbc.sql("SELECT count(*) FROM llm_call WHERE question_id IS NULL AND document_id IS NULL"
                                + " AND template = ? AND outcome = 'ok'")
                        .param(LlmReranker.TEMPLATE)
                        .query(Integer.class)
                        .single())
                .as("the call is counted in the tenant's usage")
                .isEqualTo(1);
    }

    /** Last: after a failure the model rests from reranking for a while. */
    @Test
    @Order(3)
    void aFailedRerankLeavesTheFirstStageOrder() {
        model.on(LlmReranker.TEMPLATE).fail(new IllegalStateException("the model is away"));
        model.on("rag/answer").reply("""
                {"answer": "on night 0", "confidence": 0.5, "evidence": []}""");

        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(lighthouse),
                "question",
                "Where did the keeper polish the lens?",
                "strategy",
                "rag"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        JsonNode reranked = api.traceEvents(answer, "search.reranked").getFirst();
        assertThat(reranked.get("skipped").asString()).contains("the rerank call failed");
        assertThat(model.calls("rag/answer").getFirst().user())
                .as("the first stage's order: its first passage is the keeper's")
                .containsPattern("<passage n=\"1\"[^>]*>\\n\\s*The lighthouse keeper \\w+ polished");
    }

    private static int passageContaining(String prompt, String text) {
        Matcher m = Pattern.compile("<passage n=\"(\\d+)\"[^>]*>\\n(.*?)</passage>", Pattern.DOTALL)
                .matcher(prompt);
        while (m.find()) {
            if (m.group(2).contains(text)) {
                return Integer.parseInt(m.group(1));
            }
        }
        throw new AssertionError("no passage contains " + text + " in " + prompt);
    }

    static class Database implements ApplicationContextInitializer<ConfigurableApplicationContext> {
        @Override
        public void initialize(ConfigurableApplicationContext context) {
            TestDatabaseInitializer.apply(TestDatabase.sibling("llm_rerank"), context);
        }
    }
}
