package io.lorekeeper.example;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.llm.ScriptedLlm;
import io.lorekeeper.memory.FaultInjectingEmbeddingModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.TestDatabase;
import io.lorekeeper.support.TestDatabaseInitializer;
import tools.jackson.databind.JsonNode;

/**
 * A strategy added by writing one folder: registered in this context alone (a database of its own, so
 * that no other context's workers run its questions), it is listed, and {@code auto} routes a question
 * for one fact to it from its declaration alone, ahead of {@code rag}, without a model call.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "lorekeeper.llm.base-url=http://scripted.invalid/v1",
            "lorekeeper.llm.api-key=",
            "lorekeeper.llm.cache.enabled=false"
        })
@ContextConfiguration(initializers = ExampleStrategyTest.Database.class)
@Import({ExampleStrategy.class, FaultInjectingEmbeddingModel.Config.class, Api.Config.class, ScriptedLlm.class})
class ExampleStrategyTest {

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Test
    void autoRoutesAQuestionForOneFactToTheExampleByItsDeclaration() {
        model.reset();
        String marker = UUID.randomUUID().toString();
        UUID doc = api.ingest(aText("The lighthouse keeper of Eilean Glas " + marker
                        + " was called Murdo. He lit the lamp each evening at dusk.")
                .titled("Example " + marker)
                .build());

        JsonNode answer = api.ask(Map.of(
                "documentIds", List.of(doc), "question", "What was the lighthouse keeper called?", "strategy", "auto"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        JsonNode route = api.traceEvents(answer, "auto.route").getFirst();
        assertThat(route.get("chosen").asString()).isEqualTo(ExampleStrategy.NAME);
        assertThat(route.get("considered"))
                .extracting(c ->
                        c.get("strategy").asString() + ": " + c.get("verdict").asString())
                .containsExactly(ExampleStrategy.NAME + ": chosen");
        assertThat(answer.get("answer").asString()).contains("Murdo");
        assertThat(model.calls("rag/answer"))
                .as("rag, next in rank, was not asked")
                .isEmpty();
    }

    @Test
    void itIsListedWithTheDeployedStrategies() {
        assertThat(api.get("/v1/strategies").json().findValuesAsString("name")).contains(ExampleStrategy.NAME, "rag");
    }

    static class Database implements ApplicationContextInitializer<ConfigurableApplicationContext> {
        @Override
        public void initialize(ConfigurableApplicationContext context) {
            TestDatabaseInitializer.apply(TestDatabase.sibling("example_strategy"), context);
        }
    }
}
