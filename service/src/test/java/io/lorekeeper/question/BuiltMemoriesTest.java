package io.lorekeeper.question;

import static io.lorekeeper.support.TestDocuments.aConversation;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * A question waiting for a memory starts when the memory is built, not at its job's next look: here the
 * look is ten minutes away, so only the memory's event can start it within the minute the test waits.
 */
@LlmIntegrationTest
@TestPropertySource(properties = "lorekeeper.questions.memory-poll=10m")
class BuiltMemoriesTest {

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Test
    void aWaitingQuestionStartsWhenItsMemoryIsBuilt() {
        model.reset();
        model.on("gam/memo").delay(Duration.ofMillis(3000)).reply("{\"memo\": \"Tamsin adopted Biscuit.\"}");
        model.on("gam/page-header").reply("{\"header\": \"Tamsin and Orla.\"}");
        MemoryReadinessTest.scriptGamResearch(model);
        // posted, not ingested: Api.ingest would wait for the memos too
        UUID doc = UUID.fromString(api.post(
                        "/v1/documents",
                        aConversation()
                                .session(
                                        "2:00 pm on 3 July, 2023",
                                        "Tamsin",
                                        "We adopted a puppy named Biscuit!",
                                        "Orla",
                                        "Lovely.")
                                .build())
                .json()
                .get("id")
                .asString());
        api.awaitReadyBeforeItsMemories(doc, Duration.ofSeconds(60));

        JsonNode asked = api.post(
                        "/v1/questions",
                        Map.of(
                                "documentIds",
                                List.of(doc),
                                "question",
                                "What is the puppy called?",
                                "strategy",
                                "gam",
                                "waitSeconds",
                                0))
                .json();
        UUID question = UUID.fromString(asked.get("id").asString());

        JsonNode done = api.awaitQuestion(question, Duration.ofSeconds(60));
        assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("DONE");
        assertThat(api.traceEvents(done, "run.waiting"))
                .as("it waited for the memos, so it was their event that started it")
                .isNotEmpty();
    }
}
