package io.lorekeeper.comorag;

import static io.lorekeeper.comorag.ComoRagFixtures.json;
import static io.lorekeeper.llm.FakeOpenAi.completion;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * ComoRAG end to end through the real OpenAI client stack against the WireMock fake: a
 * conversation uploaded with the {@code deep} profile gets its index built at ingestion, then a
 * question fails its first try, runs one cycle (probe, encode, fuse) and answers with a citation
 * verified against the source.
 */
@FakeOpenAiTest
class ComoRagOverHttpTest {

    static final String LAMP = "The lamp in the window was never put out.";

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    private final FakeOpenAi fake = FakeOpenAi.get();

    @Test
    void buildsTheIndexOfAShortConversationAndAnswersAfterOneCycleWithAVerifiedCitation() {
        fake.onTask("gam/memo", completion("{\"memo\": \"A note.\"}"));
        fake.onTask("gam/page-header", completion("{\"header\": \"Two neighbours talk.\"}"));
        fake.onTask("mindgraph/build", completion("{\"operations\": []}"));
        fake.onTask("comorag/ner", completion(json(Map.of("entities", List.of("Ines", "Tomas")))));
        // the recognition memory keeps both linked facts (each unit states that Ines keeps a lamp)
        fake.onTask("comorag/fact-filter", completion(json(Map.of("relevant", List.of("F1", "F2")))));
        fake.onTask(
                "comorag/triples",
                completion(json(Map.of(
                        "entities",
                        List.of("Ines", "Tomas"),
                        "triples",
                        List.of(Map.of("subject", "Ines", "predicate", "keeps", "object", "a lamp"))))));
        fake.onTask(
                "comorag/semantic-summary",
                completion("{\"summary\": \"Ines and Tomas talk about the lighthouse lamp.\"}"));
        fake.onTask(
                "comorag/episodic-summary",
                completion("{\"summary\": \"Over two evenings Ines tells Tomas about the lamp.\"}"));
        Map<String, Object> conversation = new LinkedHashMap<>();
        conversation.put("title", "Two evenings at the lighthouse");
        conversation.put("profile", "deep");
        conversation.put(
                "sessions",
                List.of(
                        session("7:00 pm on 1 March, 2024", "the harbour", "the storm"),
                        session("8:30 pm on 2 March, 2024", "the orchard", "the ferry")));
        UUID doc = api.ingest(conversation);

        JsonNode stages = api.get("/v1/documents/" + doc).json().get("stages");
        for (JsonNode stage : stages) {
            if (ComoRagFixtures.STAGES.contains(stage.get("name").asString())) {
                assertThat(stage.get("status").asString()).as(stage.toString()).isEqualTo("DONE");
            }
        }
        assertThat(jdbc.sql("SELECT count(*) FROM comorag_unit WHERE document_id = ?")
                        .param(doc)
                        .query(Integer.class)
                        .single())
                .as("one unit per session")
                .isEqualTo(2);
        assertThat(jdbc.sql("SELECT count(*) FROM comorag_triple WHERE document_id = ?")
                        .param(doc)
                        .query(Integer.class)
                        .single())
                .isEqualTo(2);

        fake.onTask(
                "comorag/probe", completion("{\"probes\": [\"what Ines said about the lamp on the second evening\"]}"));
        fake.onTask("comorag/encode", completion("{\"findings\": [\"Ines says the lamp is always lit.\"]}"));
        fake.onTask("comorag/fuse", completion("{\"history\": \"Ines keeps the lighthouse lamp lit every night.\"}"));
        fake.sequence(
                completion("{\"canAnswer\": false, \"answer\": \"\", \"confidence\": 0.2, \"evidence\": []}"),
                completion(json(Map.of(
                        "understanding",
                        "Two talks at a lighthouse.",
                        "analysis",
                        "Both evenings say it.",
                        "canAnswer",
                        true,
                        "answer",
                        "Never",
                        "confidence",
                        0.85,
                        "evidence",
                        List.of(
                                Map.of("item", "V1", "quote", LAMP),
                                Map.of("item", "E1", "quote", "Over two evenings"))))));

        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(doc),
                "question",
                "When was the lamp in the window put out?",
                "strategy",
                "comorag",
                "options",
                Map.of("contextTokens", 500)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Never");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(0.85);
        assertThat(answer.get("citations")).hasSize(1);
        JsonNode citation = answer.get("citations").get(0);
        assertThat(citation.get("quote").asString()).isEqualTo(LAMP);
        String source = api.get("/v1/documents/" + doc + "/text?start="
                        + citation.get("start").asInt() + "&end="
                        + citation.get("end").asInt())
                .json()
                .get("text")
                .asString();
        assertThat(source).isEqualTo(LAMP);

        UUID id = UUID.fromString(answer.get("id").asString());
        List<String> templates = jdbc.sql(
                        "SELECT template FROM llm_call WHERE question_id = ? AND outcome = 'ok' ORDER BY id")
                .param(id)
                .query(String.class)
                .list();
        // step 0: the fact filter, try, three cues; cycle 1: probe, its fact filter, a cue for the one layer with new
        // evidence (the other session), fuse, try
        assertThat(templates)
                .containsExactly(
                        "comorag/fact-filter",
                        "comorag/answer",
                        "comorag/encode",
                        "comorag/encode",
                        "comorag/encode",
                        "comorag/probe",
                        "comorag/fact-filter",
                        "comorag/encode",
                        "comorag/fuse",
                        "comorag/answer");
        List<FakeOpenAi.Request> requests = new ArrayList<>(fake.requests());
        List<FakeOpenAi.Request> tries = requests.stream()
                .filter(r -> r.body().toString().contains("[task: comorag/answer]"))
                .toList();
        assertThat(tries).hasSize(2);
        assertThat(tries.getLast().hasJsonSchema()).isTrue();
        assertThat(tries.getLast().lastText("user"))
                .contains("<notes>\nInes keeps the lighthouse lamp lit every night.\n</notes>");
        assertThat(tries.getFirst().lastText("user")).contains("<notes>\n(none yet)\n</notes>");
        // each try saw one session: the question's search found one, the probe's the other
        boolean firstSawSessionOne = tries.getFirst().lastText("user").contains("[Session 1,");
        assertThat(tries.getLast().lastText("user"))
                .contains(firstSawSessionOne ? "[Session 2," : "[Session 1,")
                .doesNotContain(firstSawSessionOne ? "[Session 1," : "[Session 2,");
    }

    private static Map<String, Object> session(String dateTime, String place, String event) {
        List<Map<String, Object>> turns = new ArrayList<>();
        turns.add(Map.of(
                "speaker",
                "Tomas",
                "text",
                "Good evening, Ines. I walked past " + place + " on the way here, and everyone was talking about "
                        + event + " and about the lighthouse keeper who never sleeps."));
        turns.add(Map.of(
                "speaker",
                "Ines",
                "text",
                "People like to talk. My mother kept this lighthouse before me, and her father before her, "
                        + "and each of them wrote the weather into the same book every evening."));
        turns.add(Map.of(
                "speaker",
                "Tomas",
                "text",
                "Is it true what they say in the village about the lamp upstairs, that it has burned "
                        + "through every winter since the old harbour wall was built?"));
        turns.add(Map.of(
                "speaker",
                "Ines",
                "text",
                LAMP + " Not during " + event + ", not during the long winters, and not on the night "
                        + "my mother died."));
        turns.add(Map.of(
                "speaker",
                "Tomas",
                "text",
                "Then I will tell them at " + place + " that the stories are true, and that the keeper "
                        + "of the lamp is as stubborn as her mother was."));
        Map<String, Object> session = new LinkedHashMap<>();
        session.put("dateTime", dateTime);
        session.put("turns", turns);
        return session;
    }
}
