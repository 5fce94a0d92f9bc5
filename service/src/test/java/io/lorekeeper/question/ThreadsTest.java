package io.lorekeeper.question;

import static io.lorekeeper.support.TestDocuments.aConversation;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * Follow-up questions in a thread: rewritten from the earlier turns (a scripted model) before the
 * strategy retrieves, so a pronoun finds the passages about whom it points to.
 */
@LlmIntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ThreadsTest {

    /** One line per session, so that each is a chunk of its own and a one-passage retrieval shows which won. */
    private static final List<String> LINES = List.of(
            "Estella was the proud ward of Miss Havisham, raised at Satis House to break hearts.",
            "Jaggers revealed at last that Estella's mother was Molly, his silent housekeeper.",
            "Biddy said her mother had died when she was small, and her mother had left her nothing.",
            "Mrs Joe brought Pip up by hand after the death of their mother on the marshes.",
            "Herbert Pocket's mother spent her days reading books about titles and peerages.");

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    UUID book;

    @BeforeAll
    void ingest() {
        var sessions = aConversation().titled("Notes on Great Expectations");
        LINES.forEach(line -> sessions.session(null, "Reader", line));
        book = api.ingest(sessions.build());
    }

    @BeforeEach
    void script() {
        model.reset();
        model.on("rag/answer")
                .reply("{\"answer\": \"From the passage shown.\", \"confidence\": 0.6, \"evidence\": []}");
        model.on(FollowUps.TEMPLATE)
                .reply(call -> call.user().contains("Who is Estella?") ? "Who is Estella's mother?" : "unexpected");
    }

    @Test
    void aFollowUpIsRewrittenFromTheEarlierTurnAndRetrievesWhatItPointsTo() {
        JsonNode thread = api.post("/v1/threads", Map.of("title", "Estella")).json();
        UUID threadId = UUID.fromString(thread.get("id").asString());

        JsonNode first = ask("Who is Estella?", threadId);
        JsonNode followUp = api.ask(Map.of(
                "question", "Who is her mother?", "strategy", "rag", "threadId", threadId, "options", Map.of("k", 1)));

        assertThat(first.get("rewrite").get("skipped").asBoolean())
                .as("nothing earlier to read the first question by")
                .isTrue();
        assertThat(followUp.get("status").asString()).as(followUp.toString()).isEqualTo("DONE");
        assertThat(followUp.get("documentIds").get(0).asString())
                .as("a follow-up naming no documents uses the thread's")
                .isEqualTo(book.toString());
        assertThat(followUp.get("question").asString()).isEqualTo("Who is her mother?");
        assertThat(followUp.get("rewrite").get("standaloneQuestion").asString()).isEqualTo("Who is Estella's mother?");
        assertThat(followUp.get("rewrite").get("skipped").asBoolean()).isFalse();
        assertThat(model.calls(FollowUps.TEMPLATE)).hasSize(1);
        assertThat(model.calls(FollowUps.TEMPLATE).getFirst().user())
                .contains("Who is Estella?")
                .contains("From the passage shown.")
                .contains("Who is her mother?");
        assertThat(model.calls("rag/answer").getLast().user())
                .as("the passage retrieved for the rewritten question")
                .contains("Estella's mother was Molly")
                .contains("Who is Estella's mother?");
        JsonNode rewrite = api.traceEvents(followUp, "thread.rewrite").getFirst();
        assertThat(rewrite.get("standalone").asString()).isEqualTo("Who is Estella's mother?");
        assertThat(rewrite.get("turns").asInt()).isEqualTo(1);
        assertThat(followUp.get("usage").get("calls").asLong())
                .as("the rewrite is one call on the question's budget, the answer another")
                .isEqualTo(2);

        JsonNode read = api.get("/v1/threads/" + threadId).json();
        assertThat(read.get("questionCount").asInt()).isEqualTo(2);
        assertThat(read.get("questions").get(0).get("question").asString()).isEqualTo("Who is Estella?");
        assertThat(read.get("questions")
                        .get(1)
                        .get("rewrite")
                        .get("standaloneQuestion")
                        .asString())
                .isEqualTo("Who is Estella's mother?");
    }

    @Test
    void theSameQuestionWithoutAThreadIsAskedAsItIs() {
        JsonNode alone = api.ask(Map.of(
                "documentIds",
                List.of(book),
                "question",
                "Who is her mother?",
                "strategy",
                "rag",
                "options",
                Map.of("k", 1)));

        assertThat(alone.get("status").asString()).isEqualTo("DONE");
        assertThat(alone.has("rewrite")).isFalse();
        assertThat(model.calls(FollowUps.TEMPLATE)).isEmpty();
        // retrieved for the question as asked: the passage a search for it ranks first, whichever of the
        // mothers that is, and the model never sees Estella's name in the question
        String top = api.post(
                        "/v1/search",
                        Map.of("documentIds", List.of(book), "query", "Who is her mother?", "mode", "hybrid", "k", 1))
                .json()
                .get("hits")
                .get(0)
                .get("text")
                .asString();
        String line = LINES.stream().filter(top::contains).findFirst().orElseThrow();
        assertThat(model.calls("rag/answer").getLast().user())
                .contains("Question: Who is her mother?")
                .doesNotContain("Estella's mother?")
                .contains(line);
    }

    @Test
    void aThreadIsListedAndDeletedWithItsQuestions() {
        UUID threadId = UUID.fromString(
                api.post("/v1/threads", Map.of()).json().get("id").asString());
        JsonNode asked = ask("Who is Estella?", threadId);

        assertThat(api.get("/v1/threads").json().get("threads").findValuesAsString("id"))
                .contains(threadId.toString());
        assertThat(api.delete("/v1/threads/" + threadId).status()).isEqualTo(204);
        assertThat(api.get("/v1/threads/" + threadId).status()).isEqualTo(404);
        assertThat(api.get("/v1/questions/" + asked.get("id").asString()).status())
                .isEqualTo(404);
        assertThat(api.post("/v1/questions", Map.of("question", "And then?", "threadId", threadId))
                        .status())
                .isEqualTo(404);
    }

    private JsonNode ask(String question, UUID threadId) {
        return api.ask(Map.of(
                "documentIds",
                List.of(book),
                "question",
                question,
                "strategy",
                "rag",
                "threadId",
                threadId,
                "options",
                Map.of("k", 1)));
    }
}
