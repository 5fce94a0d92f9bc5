package io.lorekeeper.reasoning.auto;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import io.lorekeeper.support.TestDocuments;
import tools.jackson.databind.JsonNode;

/** With no LLM configured, auto is accepted and answers extractively, saying why. */
@IntegrationTest
class AutoWithoutLlmTest {

    @Autowired
    Api api;

    @Test
    void itAnswersExtractivelyAndSaysWhy() {
        UUID report = api.ingest(TestDocuments.aText("Annual report of the Kilmory lifeboat station. In 2022 the crew launched 31 times "
                + "and rescued 12 people. The new boat, the Margaret Lindsay, arrived in March.").titled("Lifeboat report").build());

        JsonNode answer = api.ask(Map.of("documentIds", List.of(report), "question", "How many people did the crew rescue?",
                "strategy", "auto"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("mode").asString()).isEqualTo("extractive");
        assertThat(answer.get("answer").asString()).contains("rescued 12 people");
        JsonNode auto = null;
        for (JsonNode e : api.get("/v1/questions/" + answer.get("id").asString() + "/trace").json().get("events")) {
            if (e.get("type").asString().equals("auto")) {
                auto = e.get("payload");
            }
        }
        assertThat(auto.get("chosen").asString()).isEqualTo("extractive");
        assertThat(auto.get("rule").asString()).isEqualTo("no-llm");
        assertThat(auto.get("reasons").get(0).asString()).isEqualTo("no LLM is configured");
    }
}
