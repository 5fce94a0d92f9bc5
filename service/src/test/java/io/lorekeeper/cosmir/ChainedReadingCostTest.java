package io.lorekeeper.cosmir;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.Documents;
import io.lorekeeper.llm.Budget;
import io.lorekeeper.llm.CallScope;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.strategy.AnswerStrategy;
import io.lorekeeper.strategy.Cancellation;
import io.lorekeeper.strategy.CitationVerifier;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.strategy.Strategies;
import io.lorekeeper.strategy.StrategyResult;
import io.lorekeeper.strategy.Trace;
import io.lorekeeper.strategy.TraceEvent;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import io.lorekeeper.support.SharedData;
import io.lorekeeper.text.Blocks;
import io.lorekeeper.text.SentenceSplitter;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a question costs with {@code cosmir} and with {@code chain-of-agents}, side by side, on the
 * whole of Great Expectations (about 250,000 tokens) at the paper's settings (64,000-token chunks,
 * an 8,000-token memory or summary). The scripted model stands in for the LLM, with replies of a
 * plausible size: extract names 15 facts per chunk with their quotes, infer adds 3 conclusions,
 * refine keeps the open questions, a worker's summary grows by 15 quoted sentences per chunk. The
 * prompts are the real ones, so prompt tokens are what a model would read; completion tokens
 * depend on the model. The strategies are called directly (as the question job would) as soon as
 * the novel's text is stored; usage is what the scripted model reported per call, counted with the
 * real tokenizer. Slow on two cores (the novel is still being embedded meanwhile), so it runs only
 * with {@code -Dlorekeeper.measure.chained=true}. Prints one line per strategy; docs/benchmarks.md quotes them.
 */
@LlmIntegrationTest
@EnabledIfSystemProperty(named = "lorekeeper.measure.chained", matches = "true")
class ChainedReadingCostTest {
    private static final List<String> QUESTIONS = List.of(
            "Who is Pip's secret benefactor?", "Why does Miss Havisham stop the clocks?", "What becomes of Estella?");
    private static final Pattern FACT = Pattern.compile("(?m)^\\[(G\\d+)] ");
    private static final Pattern OPEN = Pattern.compile("(?m)^- (.*)$");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    Strategies strategies;

    @Autowired
    LlmGateway gateway;

    @Autowired
    Documents documents;

    @Autowired
    CitationVerifier verifier;

    @Test
    void measuresCallsAndTokensPerQuestionOnAWholeNovel() throws Exception {
        Path novelFile = SharedData.require("novels/great_expectations_pg1400.txt");
        String novel = Files.readString(novelFile).replace("\r\n", "\n").replace("\uFEFF", "");
        DocumentInfo document = storedText(novel);
        int chunks = Blocks.split(novel, 0, 0, 64_000).size();
        int tokens = TokenCounter.count(novel);

        Map<String, double[]> costs = new LinkedHashMap<>();
        for (String name : List.of("cosmir", "chain-of-agents")) {
            AnswerStrategy strategy = strategies.require(name);
            strategy.validate(QuestionOptions.none());
            List<long[]> perQuestion = new ArrayList<>();
            int carried = 0;
            for (String question : QUESTIONS) {
                model.reset();
                script();
                List<Map.Entry<String, Object>> events = new ArrayList<>();
                Trace trace = event -> events.add(Map.entry(TraceEvent.typeOf(event), event));
                QuestionContext context = new QuestionContext(
                        UUID.randomUUID(),
                        question,
                        List.of(),
                        QuestionOptions.none(),
                        List.of(document),
                        null,
                        gateway.open(CallScope.document(document.tenantId(), document.id()), Budget.unlimited()),
                        trace,
                        Cancellation.NEVER);
                StrategyResult result = strategy.answer(context);
                assertThat(verifier.verify(result.citations(), Set.of(document.id()))
                                .kept())
                        .as("the scripted quotes are the novel's own words")
                        .isNotEmpty();
                List<ScriptedChatModel.Reported> usage = model.calls().stream()
                        .map(ScriptedChatModel.Call::template)
                        .distinct()
                        .flatMap(t -> model.reported(t).stream())
                        .toList();
                perQuestion.add(new long[] {
                    model.calls().size(),
                    usage.stream()
                            .mapToLong(ScriptedChatModel.Reported::promptTokens)
                            .sum(),
                    usage.stream()
                            .mapToLong(ScriptedChatModel.Reported::completionTokens)
                            .sum()
                });
                carried = carriedTokens(events);
            }
            double[] mean = new double[3];
            for (int i = 0; i < 3; i++) {
                final int column = i;
                mean[i] =
                        perQuestion.stream().mapToLong(c -> c[column]).average().orElseThrow();
            }
            costs.put(name, mean);
            System.out.printf(
                    "CHAINED-COST %s on Great Expectations (%,d tokens, %d chunks of 64,000): %.1f LLM calls, "
                            + "%,.0f prompt tokens, %,.0f completion tokens per question (%d questions); memory handed on at the end: %,d tokens%n",
                    name, tokens, chunks, mean[0], mean[1], mean[2], QUESTIONS.size(), carried);
        }
        // the ingestion job still embedding the novel would outlive the test
        api.delete("/v1/documents/" + document.id());
        assertThat(costs.get("cosmir")[0]).isEqualTo(2 + 3 * chunks);
        assertThat(costs.get("chain-of-agents")[0]).isEqualTo(chunks + 1);
        assertThat(costs.get("cosmir")[1]).isGreaterThan(tokens);
        assertThat(costs.get("chain-of-agents")[1]).isGreaterThan(tokens);
    }

    /**
     * The novel posted and its canonical text stored: these strategies read nothing else, so the
     * measurement does not wait for the embeddings (minutes for 1,100 chunks on two busy cores).
     */
    private DocumentInfo storedText(String novel) throws InterruptedException {
        Api.Response posted = api.post(
                "/v1/documents",
                CosmirStrategyTest.retrievalOnly(Map.of("title", "Great Expectations", "text", novel)));
        assertThat(posted.status()).as(posted.body()).isIn(200, 202);
        UUID id = UUID.fromString(posted.json().get("id").asString());
        for (int i = 0; i < 600 && !segmented(api.get("/v1/documents/" + id).json()); i++) {
            Thread.sleep(200);
        }
        assertThat(documents.text(id)).isEqualTo(novel);
        return documents.find(CurrentTenant.DEFAULT, id).orElseThrow();
    }

    private static boolean segmented(JsonNode document) {
        for (JsonNode stage : document.path("stages")) {
            if (stage.path("name").asString().equals("segment")) {
                return stage.path("status").asString().equals("DONE");
            }
        }
        return false;
    }

    /** Tokens of the memory (COSMIR) or summary (Chain of Agents) after the last chunk. */
    private static int carriedTokens(List<Map.Entry<String, Object>> events) {
        int carried = 0;
        for (Map.Entry<String, Object> e : events) {
            if (e.getValue() instanceof CosmirEvent.MemoryAfterChunk memory) {
                carried = memory.tokens().total();
            } else if (e.getValue() instanceof io.lorekeeper.chainofagents.ChainOfAgentsEvent.Worker worker) {
                carried = worker.summaryTokens();
            }
        }
        return carried;
    }

    private void script() {
        model.on("cosmir/plan")
                .reply(call -> json(Map.of(
                        "questions",
                        List.of(
                                "Who is involved?",
                                "What happened first?",
                                "How are the people linked?",
                                "What happened later?",
                                "Could the obvious answer be wrong?"))));
        model.on("cosmir/extract").reply(call -> {
            List<Map<String, String>> facts = new ArrayList<>();
            for (String sentence : sentences(between(call.user(), "<source>\n", "\n</source>"), 15)) {
                facts.add(Map.of("fact", "Noted: " + words(sentence, 20), "quote", words(sentence, 10)));
            }
            return json(Map.of("facts", facts));
        });
        model.on("cosmir/infer").reply(call -> {
            List<String> ids =
                    FACT.matcher(call.user()).results().map(m -> m.group(1)).toList();
            List<Map<String, Object>> inferred = new ArrayList<>();
            for (int i = 0; i < 3 && ids.size() > i + 1; i++) {
                List<String> basis = List.of(ids.get(ids.size() - 1 - i), ids.get(ids.size() - 2 - i));
                inferred.add(Map.of(
                        "fact",
                        "Taken together, " + basis.get(0) + " and " + basis.get(1)
                                + " say more about the same people and events.",
                        "basis",
                        basis));
            }
            return json(Map.of("inferred", inferred));
        });
        model.on("cosmir/refine").reply(call -> {
            String notes = between(call.user(), "<notes>\n", "\nGathered facts:");
            return json(Map.of(
                    "questions",
                    OPEN.matcher(notes).results().map(m -> m.group(1)).toList()));
        });
        model.on("cosmir/manage").reply(call -> {
            List<String> ids = FACT.matcher(call.user())
                    .results()
                    .map(m -> m.group(1))
                    .limit(2)
                    .toList();
            return json(Map.of(
                    "answer",
                    "A scripted answer.",
                    "rationale",
                    "It rests on the first facts.",
                    "citedFacts",
                    ids,
                    "confidence",
                    0.5));
        });
        model.on("chain-of-agents/worker").reply(call -> {
            String previous = between(call.user(), "<summary>\n", "\n</summary>");
            StringBuilder summary = new StringBuilder(previous.startsWith("(nothing yet") ? "" : previous);
            for (String sentence : sentences(between(call.user(), "<source>\n", "\n</source>"), 15)) {
                summary.append(" The text says \"").append(words(sentence, 12)).append("\".");
            }
            return json(Map.of("summary", summary.toString().strip()));
        });
        model.on("chain-of-agents/manage").reply(call -> {
            List<String> quoted = Pattern.compile("\"([^\"]+)\"")
                    .matcher(between(call.user(), "<summary>\n", "\n</summary>"))
                    .results()
                    .map(m -> m.group(1))
                    .limit(2)
                    .toList();
            return json(Map.of("answer", "A scripted answer.", "quotes", quoted, "confidence", 0.5));
        });
    }

    /** {@code n} sentences spread evenly over the chunk, without double quotes (so that a summary can quote them). */
    private static List<String> sentences(String chunk, int n) {
        List<String> all = new ArrayList<>();
        for (Span s : SentenceSplitter.split(chunk)) {
            String sentence = s.of(chunk).strip();
            if (sentence.split("\\s+").length >= 8 && sentence.indexOf('"') < 0) {
                all.add(sentence);
            }
        }
        List<String> picked = new ArrayList<>();
        for (int i = 0; i < n && !all.isEmpty(); i++) {
            picked.add(all.get(i * all.size() / n));
        }
        return picked;
    }

    private static String words(String sentence, int n) {
        String[] words = sentence.split("\\s+");
        return String.join(" ", java.util.Arrays.copyOf(words, Math.min(n, words.length)));
    }

    private static String between(String text, String from, String to) {
        int start = text.indexOf(from);
        int end = start < 0 ? -1 : text.indexOf(to, start + from.length());
        return start < 0 || end < 0 ? "" : text.substring(start + from.length(), end);
    }

    private static String json(Object value) {
        return JSON.writeValueAsString(value);
    }
}
