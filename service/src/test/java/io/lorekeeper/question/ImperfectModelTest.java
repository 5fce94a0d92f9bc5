package io.lorekeeper.question;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;

import io.lorekeeper.llm.ImperfectModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.TestDatabase;
import io.lorekeeper.support.TestDatabaseInitializer;
import io.lorekeeper.support.TestStrategies;
import tools.jackson.databind.JsonNode;

/**
 * Every LLM strategy under the conditions of a real model on a bad day ({@link ImperfectModel}: a
 * quarter of the replies in prose where JSON was asked, 15% cut at the output limit, 15% HTTP 500):
 * every memory of a {@code deep} document ends DONE (gaps counted), every question ends DONE with an
 * answer, and its trace says what was worked around. With the endpoint down, questions fail with the
 * model's reason and the document stays READY.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "lorekeeper.llm.base-url=http://imperfect.invalid/v1",
            "lorekeeper.llm.api-key=",
            "lorekeeper.llm.cache.enabled=false",
            "lorekeeper.llm.retry.initial-backoff=5ms",
            "lorekeeper.llm.retry.max-backoff=20ms"
        })
@ContextConfiguration(initializers = ImperfectModelTest.Database.class)
@Import({TestStrategies.class, Api.Config.class, ImperfectModel.Config.class})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ImperfectModelTest {

    static final List<String> STRATEGIES =
            List.of("rag", "gam", "mindgraph", "memcot", "cosmir", "chain-of-agents", "comorag", "auto");

    /** What a trace says about replies worked around and steps that degraded. */
    static final List<String> DEGRADATIONS = List.of(
            "llm.truncated",
            "llm.plain-text",
            "llm.dropped",
            "step.failed",
            "step.last-resort",
            "run.fallback",
            "step.budget");

    private static final String STORY = """
            In the spring of 1902 the old mill of Kilmory burned down. The fire was started by a lamp that \
            Hector Munro had left burning in the loft. Nobody was hurt, but the miller, Ewan Munro, lost his \
            winter stock of oats.

            Hector was Ewan's younger brother. He had come back from Glasgow in 1899 after his wife Mairi died, \
            and he slept in the loft because the cottage was full. The brothers had not spoken for ten years \
            before that, since a quarrel over their father's boat.

            After the fire Ewan rebuilt the mill in stone. The new mill was finished in 1904 and ground barley \
            as well as oats. Hector paid for the new millstones with the money he had saved in Glasgow, and the \
            brothers were partners from then on.

            In 1911 a storm took the roof off the new mill. This time the whole village helped to mend it, and \
            the minister, Mr Alasdair Ross, wrote an account of the storm for the Inverness Courier.
            """;

    @Autowired
    Api api;

    @Autowired
    ImperfectModel model;

    private static UUID story;

    @Test
    @Order(1)
    void everyMemoryOfADeepDocumentEndsDoneWithItsGapsCounted() {
        story = api.ingest(Map.of("title", "Kilmory", "text", STORY, "profile", "deep"));

        JsonNode document = api.get("/v1/documents/" + story).json();
        assertThat(document.get("status").asString()).isEqualTo("READY");
        for (JsonNode stage : document.get("stages")) {
            assertThat(stage.get("status").asString())
                    .as("stage %s: %s", stage.get("name").asString(), stage)
                    .isEqualTo("DONE");
        }
        System.out.printf("Imperfect model, ingestion: %s%n", model.faults());
        assertThat(model.faults()).containsKeys("server-error", "cut", "prose");
    }

    @Test
    @Order(2)
    void everyLlmStrategyAnswersAndSaysWhatItWorkedAround() {
        Map<String, Object> seen = new LinkedHashMap<>();
        for (String strategy : STRATEGIES) {
            for (String question : List.of("Who started the fire at the mill?", "Who paid for the new millstones?")) {
                JsonNode answer = api.ask(Map.of(
                        "documentIds", List.of(story), "question", question, "strategy", strategy, "waitSeconds", 60));
                assertThat(answer.get("status").asString())
                        .as("%s on '%s': %s", strategy, question, answer)
                        .isEqualTo("DONE");
                assertThat(answer.get("answer").asString())
                        .as("%s: %s", strategy, answer)
                        .isNotBlank();
                List<String> events = api.traceTypes(answer);
                TreeSet<String> degraded = new TreeSet<>(events);
                degraded.retainAll(DEGRADATIONS);
                seen.put(strategy + ": " + question, degraded);
                boolean marked = answer.path("budgetLimited").asBoolean(false)
                        || !answer.path("degraded").isMissingNode()
                                && !answer.path("degraded").isNull();
                if (degraded.contains("run.fallback")) {
                    assertThat(marked)
                            .as("a fallback answer is marked: %s", answer)
                            .isTrue();
                }
            }
        }
        seen.forEach((question, events) -> System.out.printf("Imperfect model, %s -> %s%n", question, events));
        System.out.printf("Imperfect model, all: %s%n", model.faults());
        assertThat(seen.values().stream()
                        .filter(e -> !((TreeSet<?>) e).isEmpty())
                        .count())
                .as("the faults reached the questions, and their traces say so")
                .isPositive();
    }

    @Test
    @Order(3)
    void withTheEndpointDownQuestionsFailWithTheModelsReasonAndTheDocumentStaysReady() {
        model.down();
        try {
            for (String strategy : List.of("rag", "gam")) {
                JsonNode answer = api.ask(Map.of(
                        "documentIds", List.of(story), "question", "Who started the fire?", "strategy", strategy));
                assertThat(answer.get("status").asString())
                        .as(answer.toString())
                        .isEqualTo("FAILED");
                assertThat(answer.get("failureReason").asString())
                        .as(answer.toString())
                        .containsIgnoringCase("connect");
            }
            JsonNode extractive = api.ask(Map.of(
                    "documentIds", List.of(story), "question", "Who started the fire?", "strategy", "extractive"));
            assertThat(extractive.get("status").asString()).isEqualTo("DONE");
            // the failed calls above marked the endpoint unreachable: auto routes around it
            JsonNode auto = api.ask(
                    Map.of("documentIds", List.of(story), "question", "Who started the fire?", "strategy", "auto"));
            assertThat(auto.get("status").asString()).as(auto.toString()).isEqualTo("DONE");
            JsonNode route = api.traceEvents(auto, "auto.route").getFirst();
            assertThat(route.get("chosen").asString()).isEqualTo("extractive");
            assertThat(route.get("reasons").get(0).asString()).contains("model endpoint does not answer");
            assertThat(api.get("/v1/documents/" + story).json().get("status").asString())
                    .isEqualTo("READY");
        } finally {
            model.up();
        }
    }

    static class Database implements ApplicationContextInitializer<ConfigurableApplicationContext> {
        @Override
        public void initialize(ConfigurableApplicationContext context) {
            TestDatabaseInitializer.apply(TestDatabase.sibling("imperfect"), context);
        }
    }
}
