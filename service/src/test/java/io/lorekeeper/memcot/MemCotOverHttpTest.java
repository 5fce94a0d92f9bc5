package io.lorekeeper.memcot;

import static io.lorekeeper.llm.FakeOpenAi.completion;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.eval.Datasets;
import io.lorekeeper.eval.EvalItem;
import io.lorekeeper.llm.FakeOpenAi;
import io.lorekeeper.llm.FakeOpenAiTest;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.SharedData;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * MemCoT end to end through the real OpenAI client stack against the WireMock fake, over LoCoMo's
 * conv-26 as the evaluation loads it: one step (zoom-in, zoom-out, judge), then the responder, and an
 * answer whose citation is verified against the source and names its turn.
 */
@FakeOpenAiTest
class MemCotOverHttpTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String QUOTE = "I went to a LGBTQ support group yesterday";

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    private final FakeOpenAi fake = FakeOpenAi.get();

    @Test
    void answersALocomoQuestionWithAVerifiedCitationOfItsTurn() {
        Path locomo = SharedData.require("locomo/locomo10_dev3.json");
        EvalItem item = Datasets.load("locomo", locomo, 0).stream()
                .filter(i -> i.question().equals("When did Caroline go to the LGBTQ support group?"))
                .findFirst()
                .orElseThrow();
        assertThat(item.evidence()).containsExactly("D1:3");
        fake.onTask("gam/memo", completion("{\"memo\": \"A chat.\"}"));
        fake.onTask("gam/page-header", completion("{\"header\": \"Caroline and Melanie talk.\"}"));
        fake.onTask("mindgraph/build", completion("{\"operations\": []}"));
        UUID doc = api.ingest(item.document());
        fake.reset();

        int evidenceChunk = chunkOf(doc, "D1:3");
        int nextChunk = evidenceChunk + 1;
        assertThat(pageOf(doc, nextChunk)).isEqualTo(pageOf(doc, evidenceChunk));
        String evidence = "D1-C" + evidenceChunk;
        String next = "D1-C" + nextChunk;
        fake.onTask(
                "memcot/zoom-in",
                completion(json(Map.of(
                        "thinking",
                        "the group is mentioned",
                        "missingInformation",
                        "the date",
                        "usefulIds",
                        List.of(evidence, "D1-C99999")))));
        fake.onTask(
                "memcot/zoom-out",
                completion(json(
                        Map.of("thinking", "what followed", "missingInformation", "", "usefulIds", List.of(next)))));
        fake.onTask(
                "memcot/judge",
                completion(json(Map.of(
                        "thinking",
                        "Session 1 is dated 8 May 2023 and she went the day before.",
                        "usefulIds",
                        List.of(evidence, next),
                        "canAnswer",
                        true,
                        "newQueries",
                        List.of(),
                        "resolved",
                        List.of()))));
        fake.onTask(
                "memcot/answer",
                completion(json(Map.of(
                        "answer",
                        "7 May 2023",
                        "confidence",
                        0.9,
                        "evidence",
                        List.of(Map.of("id", evidence, "quote", QUOTE))))));

        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(doc),
                "question",
                item.question(),
                "strategy",
                "memcot",
                "options",
                Map.of("perceptionTemperature", 0.7)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("7 May 2023");
        JsonNode citation = answer.get("citations").get(0);
        assertThat(answer.get("citations")).hasSize(1);
        assertThat(citation.get("turnId").asString()).isEqualTo("D1:3");
        assertThat(citation.get("quote").asString()).isEqualTo(QUOTE);
        assertThat(api.get("/v1/documents/" + doc + "/text?start="
                                + citation.get("start").asInt() + "&end="
                                + citation.get("end").asInt())
                        .json()
                        .get("text")
                        .asString())
                .isEqualTo(QUOTE);

        List<FakeOpenAi.Request> calls = fake.requests().stream()
                .filter(r -> task(r).startsWith("memcot/"))
                .toList();
        assertThat(calls)
                .extracting(MemCotOverHttpTest::task)
                .containsExactly("memcot/zoom-in", "memcot/zoom-out", "memcot/judge", "memcot/answer");
        assertThat(calls).allSatisfy(r -> {
            assertThat(r.hasJsonSchema()).isTrue();
            assertThat(r.authorization()).isEqualTo("Bearer " + FakeOpenAi.API_KEY);
        });
        // the perception agents sample at the requested temperature; the judge (its own role, not the evaluation
        // judge's) at 0; the responder at the paper's 1.0
        assertThat(calls)
                .extracting(r -> r.body().path("temperature").asDouble())
                .containsExactly(0.7, 0.7, 0.0, 1.0);
        String responder = calls.get(3).lastText("user");
        assertThat(responder)
                .contains("session=\"[Session 1, 1:56 pm on 8 May, 2023]\"")
                .contains(QUOTE)
                .contains("Session 1 is dated 8 May 2023");
        assertThat(responder.split("<passage ", -1)).hasSize(3);

        UUID id = UUID.fromString(answer.get("id").asString());
        assertThat(answer.get("usage").get("calls").asInt()).isEqualTo(4);
        JsonNode trace = api.get("/v1/questions/" + id + "/trace").json().get("events");
        List<String> contextTurns = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (JsonNode e : trace) {
            if (e.get("type").asString().equals("memcot.context")) {
                e.get("payload")
                        .get("units")
                        .forEach(u -> u.get("turnIds").forEach(t -> contextTurns.add(t.asString())));
            }
            if (e.get("type").asString().equals("memcot.zoom-in")) {
                e.get("payload").get("unknownIds").forEach(u -> unknown.add(u.asString()));
            }
        }
        assertThat(contextTurns).contains("D1:3");
        assertThat(unknown).containsExactly("D1-C99999");
    }

    private int chunkOf(UUID doc, String turnId) {
        return jdbc.sql("SELECT ordinal FROM chunk WHERE document_id = ? AND ? = ANY(turn_ids)")
                .params(doc, turnId)
                .query(Integer.class)
                .single();
    }

    private int pageOf(UUID doc, int chunk) {
        return jdbc.sql("SELECT page_ordinal FROM chunk WHERE document_id = ? AND ordinal = ?")
                .params(doc, chunk)
                .query(Integer.class)
                .single();
    }

    private static String task(FakeOpenAi.Request request) {
        String system = request.messages("system").isEmpty()
                ? ""
                : FakeOpenAi.Request.text(request.messages("system").getFirst());
        return system.startsWith("[task: ") ? system.substring(7, system.indexOf(']')) : "";
    }

    private static String json(Object value) {
        return JSON.writeValueAsString(value);
    }
}
