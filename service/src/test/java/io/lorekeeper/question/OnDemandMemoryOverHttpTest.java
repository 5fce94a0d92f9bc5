package io.lorekeeper.question;

import static io.lorekeeper.llm.FakeOpenAi.completion;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.llm.FakeOpenAi;
import io.lorekeeper.llm.FakeOpenAiTest;
import io.lorekeeper.support.Api;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A new user's first ComoRAG question, through the real OpenAI client stack against the WireMock
 * fake: the document was uploaded with the default profile, which leaves ComoRAG's index to be built
 * on demand. The question starts building it, waits (saying what for), and answers with a citation
 * verified against the source.
 */
@FakeOpenAiTest
class OnDemandMemoryOverHttpTest {

    private static final String FIRE = "The fire was started by a lamp that Hector Munro had left burning in the loft.";

    @Autowired
    Api api;

    private final FakeOpenAi fake = FakeOpenAi.get();

    @Test
    void aComoRagQuestionOnADefaultProfileDocumentBuildsTheIndexAndAnswersWithAVerifiedCitation() {
        fake.onTask("gam/memo", completion("{\"memo\": \"The mill burned.\"}"));
        fake.onTask("gam/page-header", completion("{\"header\": \"Kilmory, 1902.\"}"));
        fake.onTask("mindgraph/build", completion("{\"operations\": []}"));
        fake.onTask("comorag/ner", completion(json(Map.of("entities", List.of("Hector Munro", "the mill")))));
        fake.onTask("comorag/fact-filter", completion(json(Map.of("relevant", List.of("F1")))));
        fake.onTask(
                "comorag/triples",
                completion(json(Map.of(
                        "entities",
                        List.of("Hector Munro", "the mill"),
                        "triples",
                        List.of(Map.of("subject", "Hector Munro", "predicate", "left burning", "object", "a lamp"))))));
        fake.onTask("comorag/semantic-summary", completion("{\"summary\": \"The mill of Kilmory burns down.\"}"));
        fake.onTask(
                "comorag/episodic-summary", completion("{\"summary\": \"In 1902 the mill burns; no one is hurt.\"}"));
        fake.onTask(
                "comorag/answer",
                completion(json(Map.of(
                        "understanding",
                        "Who started the fire.",
                        "analysis",
                        "The passage names him.",
                        "canAnswer",
                        true,
                        "answer",
                        "Hector Munro",
                        "confidence",
                        0.9,
                        "evidence",
                        List.of(Map.of("item", "V1", "quote", FIRE))))));
        UUID id = api.ingest(Map.of(
                "title",
                "Kilmory " + UUID.randomUUID(),
                "text",
                "In the spring of 1902 the old mill of Kilmory burned down. " + FIRE + " Nobody was hurt. ("
                        + UUID.randomUUID() + ")"));
        assertThat(stages(id, "triples"))
                .as("the default profile leaves the index to be built on demand")
                .isEqualTo("SKIPPED");

        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(id),
                "question",
                "Who started the fire?",
                "strategy",
                "comorag",
                "options",
                Map.of("maxCycles", 0)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Hector Munro");
        JsonNode citation = answer.get("citations").get(0);
        assertThat(citation.get("quote").asString()).isEqualTo(FIRE);
        assertThat(api.get("/v1/documents/" + id + "/text?start="
                                + citation.get("start").asInt() + "&end="
                                + citation.get("end").asInt())
                        .json()
                        .get("text")
                        .asString())
                .isEqualTo(FIRE);
        for (String stage : List.of("veridical", "triples", "semantic", "episodic")) {
            assertThat(stages(id, stage)).as(stage).isEqualTo("DONE");
        }
        List<String> events = api.traceTypes(answer);
        assertThat(events).contains("run.memory-build", "run.waiting");
        assertThat(events.indexOf("run.memory-build")).isLessThan(events.indexOf("run.waiting"));
    }

    private String stages(UUID id, String name) {
        for (JsonNode stage : api.get("/v1/documents/" + id).json().get("stages")) {
            if (stage.get("name").asString().equals(name)) {
                return stage.get("status").asString();
            }
        }
        throw new AssertionError("no stage " + name);
    }

    private static String json(Object value) {
        return JsonMapper.builder().build().writeValueAsString(value);
    }
}
