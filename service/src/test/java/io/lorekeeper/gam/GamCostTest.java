package io.lorekeeper.gam;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import io.lorekeeper.support.SharedData;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a GAM question costs in model calls and prompt tokens on a real LoCoMo conversation
 * (conv-26: 19 sessions, ~16k tokens), with the scripted model standing in for the LLM: the
 * prompts are the real ones (memos, pages, notes), so their token counts are what a model would
 * read. Each question runs two research rounds. Prints a summary line; docs/benchmarks.md quotes it.
 */
@LlmIntegrationTest
class GamCostTest {

    private static final int QUESTIONS = 10;

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    JdbcClient jdbc;

    @Test
    void measuresCallsAndTokensPerQuestionOnLocomo() throws Exception {
        Path locomo = SharedData.require("locomo/locomo10_dev3.json");
        JsonNode sample =
                JsonMapper.builder().build().readTree(Files.readString(locomo)).get(0);
        model.reset();
        UUID conversation = api.ingest(
                Map.of("title", "LoCoMo " + sample.get("sample_id").asString(), "sessions", sessions(sample)));
        script();

        List<long[]> costs = new ArrayList<>();
        for (int i = 0; i < QUESTIONS; i++) {
            model.reset();
            script();
            String question = sample.get("qa").get(i).get("question").asString();
            JsonNode answer =
                    api.ask(Map.of("documentIds", List.of(conversation), "question", question, "strategy", "gam"));
            assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
            UUID id = UUID.fromString(answer.get("id").asString());
            costs.add(jdbc.sql(
                            "SELECT count(*), coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0) FROM llm_call WHERE question_id = ?")
                    .param(id)
                    .query((rs, n) -> new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)})
                    .single());
        }
        double calls = costs.stream().mapToLong(c -> c[0]).average().orElseThrow();
        double prompt = costs.stream().mapToLong(c -> c[1]).average().orElseThrow();
        double completion = costs.stream().mapToLong(c -> c[2]).average().orElseThrow();
        System.out.printf(
                "GAM cost on LoCoMo %s, %d questions, 2 research rounds each: %.1f LLM calls, %.0f prompt tokens, %.0f completion tokens per question%n",
                sample.get("sample_id").asString(), QUESTIONS, calls, prompt, completion);
        assertThat(calls).isEqualTo(7.0);
        assertThat(prompt).isGreaterThan(1000);
    }

    /** Two rounds: the first reflection asks for more, the second is satisfied; searches use the request's words. */
    private void script() {
        model.on("gam/plan").reply(call -> {
            String request =
                    between(call.user(), "<request>", "</request>").strip().split("\n")[0];
            return "{\"informationNeeds\": [\"facts for the request\"], \"keywordQueries\": [" + quote(request)
                    + "], \"vectorQueries\": [" + quote(request) + "], \"pages\": []}";
        });
        model.on("gam/integrate").reply(call -> {
            Matcher page = Pattern.compile(
                            "<page ref=\"D1-P(\\d+)\">\\n(?:\\(context:[^\\n]*\\)\\n)?([^\\n]*)\\n([^\\n]*)")
                    .matcher(call.user());
            String fact = page.find() ? page.group(3) : "nothing found";
            String ref = page.find(0) ? page.group(1) : "0";
            return "{\"summary\": " + quote(fact) + ", \"facts\": [{\"fact\": " + quote(fact)
                    + ", \"sources\": [{\"doc\": 1, \"page\": " + ref + "}]}]}";
        });
        model.on("gam/reflect")
                .once("{\"enough\": false, \"followUps\": [\"the date it happened\"]}")
                .reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"scripted\", \"evidence\": [], \"confidence\": 0.5}");
    }

    private static List<Map<String, Object>> sessions(JsonNode sample) {
        JsonNode conversation = sample.get("conversation");
        List<Map<String, Object>> sessions = new ArrayList<>();
        for (int n = 1; conversation.has("session_" + n + "_date_time"); n++) {
            List<Map<String, Object>> turns = new ArrayList<>();
            JsonNode session = conversation.get("session_" + n);
            if (session != null) {
                session.forEach(t -> turns.add(Map.of(
                        "id",
                        t.get("dia_id").asString(),
                        "speaker",
                        t.get("speaker").asString(),
                        "text",
                        t.get("text").asString())));
            }
            if (!turns.isEmpty()) {
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("id", String.valueOf(n));
                s.put(
                        "dateTime",
                        conversation.get("session_" + n + "_date_time").asString());
                s.put("turns", turns);
                sessions.add(s);
            }
        }
        return sessions;
    }

    private static String between(String text, String from, String to) {
        int start = text.indexOf(from);
        int end = text.indexOf(to, start);
        return start < 0 || end < 0 ? "" : text.substring(start + from.length(), end);
    }

    private static String quote(String s) {
        return JsonMapper.builder().build().writeValueAsString(s);
    }
}
