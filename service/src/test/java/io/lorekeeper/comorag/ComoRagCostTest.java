package io.lorekeeper.comorag;

import static io.lorekeeper.comorag.ComoRagFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import io.lorekeeper.text.SentenceSplitter;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;

/**
 * What ComoRAG costs in model calls and tokens, with the scripted model standing in for the LLM:
 * the index of the first ~100K tokens of Great Expectations (per stage), and questions under three
 * scenarios (answered in cycle 2 with three probes per cycle; never answered, five cycles, per-layer
 * encoding; the same with one encode call per probe), and the same under the earlier veridical layer
 * (margin fact filter, probe-named entity seeds, the loop stopping without a new probe). Prompts are the real ones, so prompt tokens
 * are what a model would read; the scripted replies are sized like a model's (a few triples per
 * unit, 150-token summaries, five findings), so completion tokens are indicative only. Prints the
 * figures docs/benchmarks.md quotes. Run with {@code -Dlorekeeper.measure.comorag=true}.
 */
@LlmIntegrationTest
@EnabledIfSystemProperty(named = "lorekeeper.measure.comorag", matches = "true")
class ComoRagCostTest {

    private static final Path NOVEL = Path.of("..", "shared", "data", "novels", "great_expectations_pg1400.txt");
    private static final int TOKENS = 100_000;
    private static final List<String> QUESTIONS = List.of(
            "Who is Pip's benefactor?",
            "What is the name of Pip's sister?",
            "What does Pip steal for the convict on Christmas Eve?",
            "Who is Miss Havisham?",
            "Why does Pip go to Satis House?");
    private static final Pattern PASSAGE =
            Pattern.compile("<(passage|summary) n=\"[A-Z]?\\d+\"[^>]*>\\n(.*?)\\n</\\1>", Pattern.DOTALL);
    private static final Pattern PLAIN = Pattern.compile("<passage>\\n(.*?)\\n</passage>", Pattern.DOTALL);

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    JdbcClient jdbc;

    @Test
    void measureIndexAndQuestions() throws Exception {
        String novel = Files.readString(NOVEL).replace("\r\n", "\n");
        String text = prefix(novel, TOKENS);
        model.reset();
        Api.Response posted =
                api.post("/v1/documents", Map.of("title", "Great Expectations, first 100K tokens", "text", text));
        UUID id = UUID.fromString(posted.json().get("id").asString());
        api.awaitDocument(id, "READY", java.time.Duration.ofMinutes(30));
        int documentTokens =
                api.get("/v1/documents/" + id).json().get("tokenCount").asInt();
        scriptIndex();
        long started = System.nanoTime();
        ComoRagFixtures.buildIndex(api, id);
        double seconds = (System.nanoTime() - started) / 1e9;

        List<Map<String, Object>> stages = jdbc.sql("""
                SELECT template, count(*) AS calls, sum(prompt_tokens) AS prompt, sum(completion_tokens) AS completion
                FROM llm_call WHERE document_id = ? AND template LIKE 'comorag/%' GROUP BY template ORDER BY template""").param(id).query().listOfRows();
        long calls = 0;
        long prompt = 0;
        long completion = 0;
        double per100k = 100_000.0 / documentTokens;
        for (Map<String, Object> s : stages) {
            calls += (long) s.get("calls");
            prompt += ((Number) s.get("prompt")).longValue();
            completion += ((Number) s.get("completion")).longValue();
            System.out.printf(
                    "ComoRAG index %s: %d calls, %d prompt tokens, %d completion tokens%n",
                    s.get("template"),
                    s.get("calls"),
                    ((Number) s.get("prompt")).longValue(),
                    ((Number) s.get("completion")).longValue());
        }
        int units = jdbc.sql("SELECT count(*) FROM comorag_unit WHERE document_id = ?")
                .param(id)
                .query(Integer.class)
                .single();
        System.out.printf(
                "ComoRAG index of %d tokens (%d units, %.0f s with an instant model): %d calls, %d prompt and %d completion tokens;"
                        + " per 100K tokens: %.0f calls, %.0f prompt and %.0f completion tokens%n",
                documentTokens,
                units,
                seconds,
                calls,
                prompt,
                completion,
                calls * per100k,
                prompt * per100k,
                completion * per100k);
        assertThat(calls).isGreaterThan(units);
        measureLayers(id, documentTokens);

        Map<String, long[]> scenarios = new LinkedHashMap<>();
        scenarios.put("answered at the first try", measure(id, Map.of(), 0));
        scenarios.put("answered in cycle 2 (3 probes a cycle)", measure(id, Map.of(), 2));
        scenarios.put("never answered: 5 cycles, per-layer encode", measure(id, Map.of(), 99));
        scenarios.put("never answered: 5 cycles, per-probe encode", measure(id, Map.of("encode", "per-probe"), 99));
        // the earlier veridical layer and stopping rule, for the before/after table
        Map<String, Object> earlier = Map.of("factFilter", "margin", "entitySeeds", true, "noNewProbe", "stop");
        scenarios.put("earlier: answered at the first try", measure(id, earlier, 0));
        scenarios.put("earlier: answered in cycle 2 (3 probes a cycle)", measure(id, earlier, 2));
        scenarios.put("earlier: never answered: 5 cycles, per-layer encode", measure(id, earlier, 99));
        scenarios.forEach((name, c) -> System.out.printf(
                "ComoRAG question, %s: %.1f calls, %.0f prompt tokens, %.0f completion tokens%n",
                name,
                c[0] / (double) QUESTIONS.size(),
                c[1] / (double) QUESTIONS.size(),
                c[2] / (double) QUESTIONS.size()));
        // the try, and the fact filter's call for the question
        assertThat(scenarios.get("answered at the first try")[0]).isEqualTo(2L * QUESTIONS.size());
        assertThat(scenarios.get("earlier: answered at the first try")[0]).isEqualTo(QUESTIONS.size());
        // 1 + 1 + 3 + 2 x (1 + 3 + 9 + 1 + 1) = 35 when every layer has unseen evidence for every probe
        assertThat(scenarios.get("answered in cycle 2 (3 probes a cycle)")[0])
                .isBetween(25L * QUESTIONS.size(), 35L * QUESTIONS.size());
    }

    @Autowired
    ComoRagStore store;

    @Autowired
    GraphIndex graphs;

    @Autowired
    io.lorekeeper.retrieval.Retriever retriever;

    @Autowired
    io.lorekeeper.document.Documents documents;

    @Autowired
    io.lorekeeper.memory.Embeddings embeddings;

    /**
     * The veridical graph (its size, load and PageRank time per probe) and the first level of the
     * semantic layer under each clustering (cluster sizes, overlap, time), on the same unit vectors.
     */
    private void measureLayers(UUID id, int documentTokens) {
        EntityGraph g = store.graph(id).orElseThrow();
        long loadStart = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            store.graph(id).orElseThrow();
        }
        System.out.printf(
                "ComoRAG graph: %d entities, %d units, %d fact, %d passage, %d synonym edges; load from the database %.2f ms%n",
                g.entityCount(),
                g.unitCount(),
                g.edges(EntityGraph.FACT).size(),
                g.edges(EntityGraph.PASSAGE).size(),
                g.edges(EntityGraph.SYNONYM).size(),
                (System.nanoTime() - loadStart) / 1e6 / 20);
        long rebuild = System.nanoTime();
        graphs.build(id);
        System.out.printf(
                "ComoRAG graph rebuilt (entity names embedded, synonyms) in %.0f ms%n",
                (System.nanoTime() - rebuild) / 1e6);
        io.lorekeeper.document.DocumentInfo info = new io.lorekeeper.document.DocumentInfo(
                id,
                UUID.randomUUID(),
                "novel",
                io.lorekeeper.document.DocumentKind.TEXT,
                "default",
                io.lorekeeper.document.DocumentStatus.READY,
                1,
                documentTokens,
                0);
        TriRetriever tri = new TriRetriever(
                store,
                retriever,
                List.of(info),
                documents::text,
                graphs::load,
                ComoRagOptions.GRAPH,
                FactFilter.marginOnly(),
                false);
        List<String> probes = new ArrayList<>(QUESTIONS);
        probes.addAll(List.of(
                "Magwitch on the marshes",
                "Joe Gargery and the forge",
                "Estella at Satis House",
                "Mr Jaggers the lawyer",
                "Herbert Pocket in London"));
        double pagerank = 0;
        double retrieval = 0;
        int runs = 0;
        for (int round = 0; round < 3; round++) {
            for (String probe : probes) {
                float[] vector = embeddings.query(probe);
                long t = System.nanoTime();
                TriRetriever.LayerResult r = tri.veridical(probe, vector, 3692, java.util.Set.of());
                if (round > 0) {
                    retrieval += (System.nanoTime() - t) / 1e6;
                    pagerank +=
                            r.ranking().pagerankMs() == null ? 0 : r.ranking().pagerankMs();
                    runs++;
                }
            }
        }
        System.out.printf(
                "ComoRAG graph retrieval over %d probes: PageRank %.3f ms per probe, whole veridical retrieval %.1f ms per probe%n",
                runs, pagerank / runs, retrieval / runs);

        SemanticLevelReport.print(store.unitVectors(id), documents.text(id));
    }

    /** Sums of calls, prompt and completion tokens over the questions, answered at {@code answerAt}. */
    private long[] measure(UUID id, Map<String, Object> options, int answerAt) {
        long[] sum = new long[3];
        for (String question : QUESTIONS) {
            model.reset();
            scriptLoop(answerAt);
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("documentIds", List.of(id));
            request.put("question", question);
            request.put("strategy", "comorag");
            request.put("options", options);
            request.put("waitSeconds", 60);
            var answer = api.ask(request);
            assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
            UUID q = UUID.fromString(answer.get("id").asString());
            long[] c = jdbc.sql(
                            "SELECT count(*), coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0) FROM llm_call WHERE question_id = ?")
                    .param(q)
                    .query((rs, n) -> new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)})
                    .single();
            for (int i = 0; i < 3; i++) {
                sum[i] += c[i];
            }
        }
        return sum;
    }

    private void scriptIndex() {
        model.reset();
        model.on("comorag/ner").reply(call -> {
            List<String> entities = new ArrayList<>();
            for (String s : sentences(group(PLAIN, call.user()), 6)) {
                Matcher name = Pattern.compile("\\b\\p{Lu}\\p{L}{2,}\\b").matcher(s);
                entities.add(name.find() ? name.group() : "the narrator");
            }
            return json(Map.of("entities", entities.stream().distinct().toList()));
        });
        model.on("comorag/triples").reply(call -> {
            List<String> sentences = sentences(group(PLAIN, call.user()), 6);
            List<String> entities = new ArrayList<>();
            List<Map<String, String>> triples = new ArrayList<>();
            for (String s : sentences) {
                Matcher name = Pattern.compile("\\b\\p{Lu}\\p{L}{2,}\\b").matcher(s);
                String subject = name.find() ? name.group() : "the narrator";
                entities.add(subject);
                triples.add(Map.of("subject", subject, "predicate", "is described as", "object", cut(s, 12)));
            }
            return json(Map.of("entities", entities.stream().distinct().toList(), "triples", triples));
        });
        model.on("comorag/semantic-summary").reply(call -> json(Map.of("summary", cut(allItems(call.user()), 150))));
        model.on("comorag/episodic-summary").reply(call -> json(Map.of("summary", cut(allItems(call.user()), 180))));
    }

    private void scriptLoop(int answerAt) {
        AtomicInteger tries = new AtomicInteger();
        model.on("comorag/answer").reply(call -> {
            boolean answered = tries.getAndIncrement() >= answerAt;
            String v1 = firstItem(call.user());
            String quote = sentences(v1, 1).stream().findFirst().orElse("");
            return json(Map.of(
                    "understanding",
                    cut(v1, 40),
                    "analysis",
                    cut(v1, 60),
                    "canAnswer",
                    answered,
                    "answer",
                    cut(quote, 12),
                    "confidence",
                    answered ? 0.8 : 0.3,
                    "evidence",
                    List.of(Map.of("item", "V1", "quote", quote))));
        });
        AtomicInteger probes = new AtomicInteger();
        model.on("comorag/probe")
                .reply(call -> json(Map.of(
                        "probes",
                        List.of(
                                "angle " + probes.incrementAndGet() + " on the question",
                                "angle " + probes.incrementAndGet() + " on the people involved",
                                "angle " + probes.incrementAndGet() + " on what happened before"))));
        model.on("comorag/encode").reply(call -> json(Map.of("findings", sentences(firstItem(call.user()), 5))));
        model.on("comorag/encode-layers")
                .reply(call -> json(Map.of(
                        "veridical",
                        sentences(firstItem(call.user()), 5),
                        "semantic",
                        sentences(firstItem(call.user()), 3),
                        "episodic",
                        sentences(firstItem(call.user()), 3))));
        model.on("comorag/fuse").reply(call -> json(Map.of("history", cut(call.user(), 200))));
        // recognition memory keeps a few of the five linked facts, as a model would
        model.on("comorag/fact-filter").reply(json(Map.of("relevant", List.of("F1", "F3"))));
    }

    /** The first {@code tokens} tokens of the novel, cut at a paragraph. */
    private static String prefix(String novel, int tokens) {
        int end = Math.min(novel.length(), tokens * 4);
        while (end < novel.length() && TokenCounter.count(novel.substring(0, end)) < tokens) {
            end += 4000;
        }
        int paragraph = novel.lastIndexOf("\n\n", Math.min(end, novel.length()));
        return novel.substring(0, paragraph > 0 ? paragraph : Math.min(end, novel.length()));
    }

    private static List<String> sentences(String text, int n) {
        List<String> out = new ArrayList<>();
        for (Span s : SentenceSplitter.split(text)) {
            String sentence = s.of(text).strip();
            if (!sentence.isEmpty()) {
                out.add(sentence);
            }
            if (out.size() == n) {
                break;
            }
        }
        return out;
    }

    private static String cut(String text, int words) {
        String[] parts = text.strip().split("\\s+");
        return String.join(" ", java.util.Arrays.copyOf(parts, Math.min(words, parts.length)));
    }

    private static String firstItem(String prompt) {
        Matcher m = PASSAGE.matcher(prompt);
        return m.find() ? m.group(2) : "";
    }

    private static String allItems(String prompt) {
        StringBuilder out = new StringBuilder();
        Matcher m = PASSAGE.matcher(prompt);
        while (m.find()) {
            out.append(m.group(2)).append(' ');
        }
        return out.toString();
    }

    private static String group(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        return m.find() ? m.group(1) : "";
    }
}
