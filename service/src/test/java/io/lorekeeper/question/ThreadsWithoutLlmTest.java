package io.lorekeeper.question;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/** Without a model a follow-up is answered as it was asked, and says so. */
@IntegrationTest
class ThreadsWithoutLlmTest {

    @Autowired
    Api api;

    @Test
    void aFollowUpIsAnsweredAsAskedAndTheSkippedRewriteIsShown() {
        UUID doc =
                api.ingest(aText("Estella was the ward of Miss Havisham. Estella's mother was Molly, the housekeeper.")
                        .build());
        UUID threadId = UUID.fromString(
                api.post("/v1/threads", Map.of()).json().get("id").asString());
        api.ask(Map.of("documentIds", List.of(doc), "question", "Who is Estella?", "threadId", threadId));

        JsonNode followUp = api.ask(Map.of("question", "Who is her mother?", "threadId", threadId));

        assertThat(followUp.get("status").asString()).as(followUp.toString()).isEqualTo("DONE");
        assertThat(followUp.get("threadId").asString()).isEqualTo(threadId.toString());
        assertThat(followUp.get("rewrite").get("skipped").asBoolean()).isTrue();
        assertThat(followUp.get("rewrite").get("reason").asString()).contains("no LLM");
        assertThat(followUp.get("rewrite").has("standaloneQuestion")).isFalse();
        assertThat(api.traceEvents(followUp, "thread.rewrite")
                        .getFirst()
                        .get("skipped")
                        .asString())
                .contains("no LLM");
    }

    @Test
    void badThreadRequestsAreProblemsNamingTheirField() {
        Api.Response tooLong = api.post("/v1/threads", Map.of("title", "x".repeat(201)));
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.body()).contains("title");
        UUID threadId = UUID.fromString(
                api.post("/v1/threads", Map.of()).json().get("id").asString());
        Api.Response noDocuments = api.post("/v1/questions", Map.of("question", "Who?", "threadId", threadId));
        assertThat(noDocuments.status()).isEqualTo(400);
        assertThat(noDocuments.body()).contains("documentIds");
        assertThat(api.post("/v1/questions", Map.of("question", "Who?", "threadId", UUID.randomUUID()))
                        .status())
                .isEqualTo(404);
    }
}
