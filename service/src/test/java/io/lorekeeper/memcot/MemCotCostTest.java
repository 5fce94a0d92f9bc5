package io.lorekeeper.memcot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.evaluator.Datasets;
import io.lorekeeper.evaluator.EvalItem;
import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import io.lorekeeper.support.SharedData;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a MemCoT question costs on a real LoCoMo conversation (conv-26: 19 sessions, ~16k tokens)
 * with the scripted model standing in for the LLM: the prompts are the real ones, so their token
 * counts are what a model would read. Every question runs two steps (the paper averages 1.87): the
 * first judge BREAKs the question into two sub-queries, the second can answer. The readers keep the
 * two passages sharing most words with the question and one neighbour. Reports calls, total tokens,
 * and the tokens handed to the responder (its whole prompt, and the evidence memory alone: the
 * paper's "Token" column, about 2,400 with GPT-4o-mini). Prints a summary line; docs/benchmarks.md quotes it.
 */
@LlmIntegrationTest
class MemCotCostTest {
    private static final int QUESTIONS = 10;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern PASSAGE =
            Pattern.compile("<passage id=\"([^\"]+)\"([^>]*)>\\n(.*?)\\n</passage>", Pattern.DOTALL);
    private static final Set<String> STOP = Set.of(
            "what", "when", "where", "who", "whom", "which", "why", "how", "did", "does", "do", "is", "was", "were",
            "are", "the", "a", "an", "of", "to", "in", "on", "for", "and", "or", "with", "her", "his", "their", "she",
            "he", "they", "has", "have", "had", "be", "by", "at", "as", "that", "this", "it", "from", "would",
            "likely");

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    JdbcClient jdbc;

    @Test
    void measuresCallsTokensAndResponderContextPerQuestionOnLocomo() {
        Path locomo = SharedData.require("locomo/locomo10_dev3.json");
        List<EvalItem> items = Datasets.load("locomo", locomo, 0).stream()
                .filter(i -> i.documentKey().contains("conv-26"))
                .limit(QUESTIONS)
                .toList();
        model.reset();
        UUID conversation = api.ingest(items.getFirst().document());

        List<long[]> costs = new ArrayList<>();
        for (EvalItem item : items) {
            model.reset();
            script(item.question());
            JsonNode answer = api.ask(
                    Map.of("documentIds", List.of(conversation), "question", item.question(), "strategy", "memcot"));
            assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
            UUID id = UUID.fromString(answer.get("id").asString());
            long[] all = jdbc.sql(
                            "SELECT count(*), coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0) FROM llm_call"
                                    + " WHERE question_id = ? AND template LIKE 'memcot/%'")
                    .param(id)
                    .query((rs, n) -> new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)})
                    .single();
            long responder = jdbc.sql(
                            "SELECT coalesce(sum(prompt_tokens), 0) FROM llm_call WHERE question_id = ? AND template = 'memcot/answer'")
                    .param(id)
                    .query(Long.class)
                    .single();
            long memory = 0;
            int steps = 0;
            for (JsonNode e : api.get("/v1/questions/" + id + "/trace").json().get("events")) {
                if (e.get("type").asString().equals("memcot.context")) {
                    memory = e.get("payload").get("memoryTokens").asLong();
                    steps = e.get("payload").get("steps").asInt();
                }
            }
            assertThat(steps).isEqualTo(2);
            costs.add(new long[] {all[0], all[1], all[2], responder, memory});
        }
        double calls = mean(costs, 0);
        double prompt = mean(costs, 1);
        double completion = mean(costs, 2);
        double responder = mean(costs, 3);
        double memory = mean(costs, 4);
        System.out.printf(
                Locale.ROOT,
                "MemCoT cost on LoCoMo conv-26, %d questions, 2 steps each: %.1f LLM calls, %.0f prompt + %.0f completion"
                        + " = %.0f tokens per question; responder prompt %.0f tokens, of which the evidence memory %.0f%n",
                QUESTIONS,
                calls,
                prompt,
                completion,
                prompt + completion,
                responder,
                memory);
        assertThat(calls).isEqualTo(7.0);
        assertThat(memory).isPositive().isLessThan(responder);
    }

    private void script(String question) {
        Set<String> wanted = words(question);
        model.on("memcot/zoom-in")
                .reply(call -> perception(mostOverlapping(section(call.user(), "Passages found:"), wanted, 2)));
        model.on("memcot/zoom-out").reply(call -> perception(firstUnmarked(section(call.user(), "Context windows:"))));
        model.on("memcot/judge").reply(call -> {
            List<String> candidates = ids(section(call.user(), "Candidates found in this step:"));
            Map<String, Object> out = new LinkedHashMap<>();
            boolean first = call.user().contains("Last action: none");
            out.put("thinking", first ? "Part of the question is still open." : "The evidence answers the question.");
            out.put("usefulIds", candidates);
            out.put("canAnswer", !first);
            out.put("action", first ? "BREAK" : null);
            out.put("newQueries", first ? halves(question) : List.of());
            out.put("resolved", List.of());
            return JSON.writeValueAsString(out);
        });
        model.on("memcot/answer").reply(call -> {
            Matcher m = PASSAGE.matcher(call.user());
            List<Map<String, String>> evidence = m.find() ? List.of(Map.of("id", m.group(1), "quote", "")) : List.of();
            return JSON.writeValueAsString(Map.of("answer", "scripted", "evidence", evidence, "confidence", 0.5));
        });
    }

    private static double mean(List<long[]> rows, int column) {
        return rows.stream().mapToLong(r -> r[column]).average().orElseThrow();
    }

    private static String perception(List<String> ids) {
        return JSON.writeValueAsString(Map.of("thinking", "scripted", "missingInformation", "", "usefulIds", ids));
    }

    private static List<String> mostOverlapping(String passages, Set<String> wanted, int n) {
        List<Map.Entry<String, Long>> scored = new ArrayList<>();
        Matcher m = PASSAGE.matcher(passages);
        while (m.find()) {
            scored.add(Map.entry(
                    m.group(1),
                    words(m.group(3)).stream().filter(wanted::contains).count()));
        }
        return scored.stream()
                .sorted(Comparator.comparingLong((Map.Entry<String, Long> e) -> -e.getValue()))
                .limit(n)
                .map(Map.Entry::getKey)
                .toList();
    }

    private static List<String> firstUnmarked(String windows) {
        Matcher m = PASSAGE.matcher(windows);
        while (m.find()) {
            if (!m.group(2).contains("selected=") && !m.group(2).contains("known=")) {
                return List.of(m.group(1));
            }
        }
        return List.of();
    }

    private static List<String> ids(String passages) {
        List<String> out = new ArrayList<>();
        Matcher m = PASSAGE.matcher(passages);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** Two sub-queries: the question's content words, split in half. */
    private static List<String> halves(String question) {
        List<String> content = new ArrayList<>(words(question));
        if (content.size() < 2) {
            return List.of(question + " date");
        }
        int mid = content.size() / 2;
        return List.of(
                String.join(" ", content.subList(0, mid)), String.join(" ", content.subList(mid, content.size())));
    }

    private static String section(String prompt, String marker) {
        int at = prompt.indexOf(marker);
        return at < 0 ? "" : prompt.substring(at);
    }

    private static Set<String> words(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (w.length() > 2 && !STOP.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }
}
