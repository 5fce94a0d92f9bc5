package io.lorekeeper.mindgraph;

import static io.lorekeeper.llm.FakeOpenAi.completion;
import static io.lorekeeper.mindgraph.MindGraphStrategyTest.add;
import static io.lorekeeper.mindgraph.MindGraphStrategyTest.edge;
import static io.lorekeeper.mindgraph.MindGraphStrategyTest.ops;
import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.llm.FakeOpenAi;
import io.lorekeeper.llm.FakeOpenAiTest;
import io.lorekeeper.support.Api;
import tools.jackson.databind.JsonNode;

/**
 * MindGraph end to end through the real OpenAI client stack against the WireMock fake: a graph
 * built over a three-block document, a lookup_source round, and an answer with verified citations.
 */
@FakeOpenAiTest
class MindGraphOverHttpTest {

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    private final FakeOpenAi fake = FakeOpenAi.get();

    @Test
    void buildsAGraphOverAMultiBlockDocumentAndAnswersWithVerifiedCitations() {
        fake.onTask("gam/memo", completion("{\"memo\": \"A note.\"}"));
        fake.onTask("gam/page-header", completion("{\"header\": \"A retelling of Great Expectations.\"}"));
        fake.onTask("mindgraph/build", completion("{\"operations\": []}"));
        UUID doc = api.ingest(aText(MindGraphStrategyTest.STORY).build());
        fake.reset();
        fake.sequence(
                completion(ops(
                        add("pip", "entity", "Pip, an orphan", "Pip was raised by his sister"),
                        add("convict", "entity", "An escaped convict", "an escaped convict"))),
                completion(ops(
                        add("jaggers", "entity", "Jaggers, a lawyer", "the lawyer Jaggers"),
                        edge("jaggers", "pip", "informs", "told Pip that he had great expectations"),
                        add("estella", "entity", "Estella", "Estella was cold to him"))),
                completion(ops(
                        "{\"op\": \"edit_node\", \"id\": \"convict\", \"content\": \"Magwitch, the convict, Pip's benefactor\","
                                + " \"src\": \"The convict Magwitch returned\"}",
                        edge("convict", "pip", "benefactor_of", "revealed that he was the benefactor"))),
                FakeOpenAi.toolCall("call_1", "lookup_source", "{\"node_id\": \"convict\"}"),
                completion(
                        "{\"answer\": \"Magwitch, the convict\", \"cited_nodes\": [\"convict\", \"jaggers\"], \"confidence\": \"high\","
                                + " \"quotes\": [{\"node_id\": \"convict\", \"quote\": \"he was the benefactor\"},"
                                + " {\"node_id\": \"convict\", \"quote\": \"Magwitch paid for everything\"}]}"));

        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(doc),
                "question",
                "Who was Pip's benefactor?",
                "strategy",
                "mindgraph",
                "options",
                Map.of("chunkTokens", 40)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Magwitch, the convict");
        assertThat(answer.get("citations"))
                .extracting(c -> c.get("quote").asString())
                .as("a cited node cites the quote it was added with and the one an edit merged into it")
                .containsExactly(
                        "an escaped convict",
                        "The convict Magwitch returned",
                        "the lawyer Jaggers",
                        "he was the benefactor");
        for (JsonNode c : answer.get("citations")) {
            assertThat(MindGraphStrategyTest.STORY.substring(
                            c.get("start").asInt(), c.get("end").asInt()))
                    .isEqualTo(c.get("quote").asString());
        }
        List<FakeOpenAi.Request> requests = fake.requests();
        assertThat(requests).hasSize(5);
        assertThat(requests.get(0).hasTools()).isFalse();
        assertThat(requests.get(2).lastText("user"))
                .contains("\"id\":\"jaggers\"")
                .contains("Block 3 of 3");
        assertThat(requests.get(3).toolNames()).containsExactlyInAnyOrder("lookup_source", "subgraph_summary");
        assertThat(requests.get(3).lastText("user")).contains("3 nodes, 2 edges, built from 3 chunks");
        assertThat(requests.get(4).lastMessage().toString()).contains("Source of node convict");
        UUID id = UUID.fromString(answer.get("id").asString());
        assertThat(jdbc.sql("SELECT template FROM llm_call WHERE question_id = ? AND outcome = 'ok' ORDER BY id")
                        .param(id)
                        .query(String.class)
                        .list())
                .containsExactly(
                        "mindgraph/build",
                        "mindgraph/build",
                        "mindgraph/build",
                        "mindgraph/answer",
                        "mindgraph/answer");
        JsonNode trace = api.get("/v1/questions/" + id + "/trace").json().get("events");
        int rejected = 0;
        for (JsonNode e : trace) {
            if (e.get("type").asString().equals("mindgraph.graph")) {
                rejected =
                        e.get("payload").get("rejected").get("quote-not-found").asInt();
            }
        }
        assertThat(rejected).isEqualTo(1);
    }
}
