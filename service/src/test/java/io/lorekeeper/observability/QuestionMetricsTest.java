package io.lorekeeper.observability;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import io.lorekeeper.support.Prometheus;
import io.lorekeeper.support.TestStrategies.ScriptedStrategy;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A question of each strategy family through the scripted model (extractive with no model, rag in one
 * call, chain-of-agents reading in order and stopped by its budget, a strategy that falls back to the
 * extractive answer, one that fails), then what {@code /actuator/prometheus} says about them, as a
 * monitoring system reads it.
 */
@LlmIntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QuestionMetricsTest {

    static final String STORY = """
            Pip was raised by his sister and her husband Joe Gargery, the blacksmith. One evening Pip met an \
            escaped convict in the marshes and brought him food and a file.

            Years later the lawyer Jaggers told Pip that he had great expectations from a secret benefactor. \
            Pip believed the benefactor was Miss Havisham of Satis House.

            The convict Magwitch returned from New South Wales and revealed that he was the benefactor. Pip was \
            ashamed at first but came to love him.""";

    /** Every label the service's own metrics and Spring AI's may carry: each has a bounded set of values. */
    static final Set<String> BOUNDED_LABELS = Set.of(
            "application",
            "strategy",
            "status",
            "degraded",
            "budget_limited",
            "profile",
            "role",
            "outcome",
            "type",
            "cache",
            "error",
            "exception",
            "stage",
            "step",
            "mode",
            "task",
            "state",
            "kind",
            "le",
            "quantile",
            "gen_ai_operation_name",
            "gen_ai_system",
            "gen_ai_provider_name",
            "gen_ai_request_model",
            "gen_ai_response_model",
            "gen_ai_token_type");

    static final Pattern UUID_LIKE =
            Pattern.compile("(?i).*[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}.*");

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    ScriptedStrategy scripted;

    @Autowired
    JdbcClient jdbc;

    UUID story;

    @BeforeAll
    void ingest() {
        Map<String, Object> body =
                new LinkedHashMap<>(aText(STORY).titled("Metrics story").build());
        body.put("profile", "retrieval-only");
        story = api.ingest(body);
    }

    @BeforeEach
    void reset() {
        model.reset();
    }

    @Test
    void eachFamilysQuestionsAreCountedByStrategyAndOutcomeWithTheTokensOfTheCallLog() {
        Prometheus before = Prometheus.scrape(api);
        List<UUID> asked = new ArrayList<>();

        // no model
        JsonNode extractive = ask("Who was the benefactor?", "extractive", Map.of());
        // one answering call, after one retried attempt (a connection reset)
        model.on("rag/answer")
                .failOnce(new UncheckedIOException(new IOException("connection reset")))
                .reply(json(Map.of("answer", "Magwitch", "confidence", 0.8, "evidence", List.of())));
        JsonNode rag = ask("Who was the benefactor?", "rag", Map.of());
        // workers reading in order, stopped by a two-call budget: the manager answers, budget-limited
        model.on("chain-of-agents/worker").reply(json(Map.of("summary", "Pip met a convict.")));
        model.on("chain-of-agents/manage")
                .reply(json(Map.of("answer", "Magwitch", "confidence", 0.5, "quotes", List.of())));
        JsonNode chain = ask(
                "Who was the benefactor?",
                "chain-of-agents",
                Map.of("chunkTokens", 45, "memoryFraction", 50, "budget", Map.of("maxCalls", 2)));
        // a strategy stopped by its budget with no answer: the extractive fallback answers, degraded
        scripted.script(context -> {
            throw new BudgetExhaustedException("calls (0)");
        });
        JsonNode fallback = ask("Who was the benefactor?", "test-scripted", Map.of());
        // a strategy that fails
        scripted.script(context -> {
            throw new IllegalStateException("the scripted strategy broke");
        });
        JsonNode failed = ask("Who was the benefactor?", "test-scripted", Map.of());
        for (JsonNode q : List.of(extractive, rag, chain, fallback, failed)) {
            asked.add(UUID.fromString(q.get("id").asString()));
        }
        assertThat(extractive.get("status").asString())
                .as(extractive.toString())
                .isEqualTo("DONE");
        assertThat(rag.get("status").asString()).as(rag.toString()).isEqualTo("DONE");
        assertThat(chain.get("budgetLimited").asBoolean()).as(chain.toString()).isTrue();
        assertThat(fallback.get("degraded")).as(fallback.toString()).isNotEmpty();
        assertThat(failed.get("status").asString()).as(failed.toString()).isEqualTo("FAILED");

        // a question is counted just after its status is stored, so a reader may see FAILED a moment before the count
        Prometheus after = counted(before, 5);
        String finished = "lorekeeper_questions_finished_total";
        assertThat(after.since(before, finished, "strategy", "extractive", "status", "done", "degraded", "false"))
                .isEqualTo(1);
        assertThat(after.since(before, finished, "strategy", "rag", "status", "done", "budget_limited", "false"))
                .isEqualTo(1);
        assertThat(after.since(
                        before,
                        finished,
                        "strategy",
                        "chain-of-agents",
                        "status",
                        "done",
                        "degraded",
                        "false",
                        "budget_limited",
                        "true"))
                .isEqualTo(1);
        assertThat(after.since(
                        before,
                        finished,
                        "strategy",
                        "test-scripted",
                        "status",
                        "done",
                        "degraded",
                        "true",
                        "budget_limited",
                        "true"))
                .isEqualTo(1);
        assertThat(after.since(before, finished, "strategy", "test-scripted", "status", "failed"))
                .as("the FAILED question is counted as failed")
                .isEqualTo(1);
        assertThat(after.since(before, finished, "strategy", "test-scripted", "status", "done"))
                .isEqualTo(1);
        for (String strategy : List.of("extractive", "rag", "chain-of-agents")) {
            assertThat(after.since(before, "lorekeeper_questions_started_total", "strategy", strategy))
                    .as(strategy)
                    .isEqualTo(1);
        }
        assertThat(after.since(before, "lorekeeper_questions_started_total", "strategy", "test-scripted"))
                .isEqualTo(2);
        assertThat(after.since(before, "lorekeeper_questions_running", "strategy", "rag"))
                .as("nothing runs once they are answered")
                .isZero();

        // the run's latency histogram, by strategy and status
        assertThat(after.since(before, "lorekeeper_question_run_seconds_count", "strategy", "rag", "status", "done"))
                .isEqualTo(1);
        assertThat(after.since(
                        before,
                        "lorekeeper_question_run_seconds_count",
                        "strategy",
                        "test-scripted",
                        "status",
                        "failed"))
                .isEqualTo(1);
        assertThat(after.find("lorekeeper_question_run_seconds_bucket", "strategy", "rag", "le", "+Inf"))
                .isNotEmpty();
        assertThat(after.find("lorekeeper_question_run_seconds_bucket", "strategy", "rag", "le", "1.0"))
                .isNotEmpty();

        // tokens and calls equal the call log's rows for these questions, per role
        for (String role : List.of("answerer", "researcher")) {
            Map<String, Object> logged = jdbc.sql("""
                            SELECT coalesce(sum(prompt_tokens), 0) AS prompt, coalesce(sum(completion_tokens), 0) AS completion,
                                   count(*) FILTER (WHERE outcome = 'retry') AS retries,
                                   count(*) FILTER (WHERE outcome = 'ok') AS ok
                            FROM llm_call WHERE question_id IN (:ids) AND role = :role""")
                    .param("ids", asked)
                    .param("role", role)
                    .query()
                    .singleRow();
            assertThat(((Number) logged.get("prompt")).longValue()).as(role).isPositive();
            assertThat(after.since(
                            before,
                            "lorekeeper_llm_tokens_total",
                            "profile",
                            "default",
                            "role",
                            role,
                            "type",
                            "prompt"))
                    .as(role + " prompt tokens")
                    .isCloseTo(((Number) logged.get("prompt")).doubleValue(), within(0.001));
            assertThat(after.since(
                            before,
                            "lorekeeper_llm_tokens_total",
                            "profile",
                            "default",
                            "role",
                            role,
                            "type",
                            "completion"))
                    .as(role + " completion tokens")
                    .isCloseTo(((Number) logged.get("completion")).doubleValue(), within(0.001));
            assertThat(after.since(before, "lorekeeper_llm_call_seconds_count", "role", role, "outcome", "ok"))
                    .as(role + " calls")
                    .isEqualTo(((Number) logged.get("ok")).doubleValue());
            assertThat(after.since(before, "lorekeeper_llm_retries_total", "role", role))
                    .as(role + " retries")
                    .isEqualTo(((Number) logged.get("retries")).doubleValue());
        }
        assertThat(after.since(before, "lorekeeper_llm_retries_total", "role", "answerer"))
                .as("rag's retried attempt")
                .isEqualTo(1);

        // the searches the strategies made, by mode; ingestion's stages and the embeddings they computed
        assertThat(after.since(before, "lorekeeper_search_seconds_count", "mode", "hybrid"))
                .isPositive();
        assertThat(after.find("lorekeeper_ingestion_stage_seconds_count", "stage", "embed", "outcome", "done"))
                .isNotEmpty();
        assertThat(after.sum("lorekeeper_embedding_texts_total", "kind", "passage"))
                .isPositive();
        assertThat(after.sum("lorekeeper_embedding_texts_total", "kind", "query"))
                .isPositive();
        assertThat(after.find("lorekeeper_jobs", "task", "answer-question", "state", "due"))
                .isNotEmpty();
        assertThat(after.find("lorekeeper_ingestion_stages", "stage", "sentences", "status", "pending"))
                .isNotEmpty();
        assertThat(after.sum("lorekeeper_keyword_index_postings")).isPositive();
        assertThat(after.sum("lorekeeper_keyword_index_memory_bytes")).isPositive();

        assertOnlyBoundedLabels(after, asked);
    }

    /**
     * The families the first test does not run, each a whole strategy against usable replies (the simulated
     * model's): each question counted once as started and finished DONE under its own strategy, and the tokens
     * of every role these questions called equal to the call log's rows for them.
     */
    @Test
    void everyResearchLoopIsCountedByStrategyWithTheTokensOfTheCallLog() {
        model.otherwise(ScriptedChatModel.simulated());
        // the memories these strategies read (ComoRAG's layers, GAM's pages, the graph) are built by the model
        // (another text than the retrieval-only story's: the same text is the same document)
        Map<String, Object> body = new LinkedHashMap<>(aText(STORY + "\n\nThe end.")
                .titled("Metrics story, with memories")
                .build());
        body.put("profile", "deep");
        UUID book = api.ingest(body);
        List<String> families = List.of("gam", "memcot", "comorag", "mindgraph", "cosmir");
        Prometheus before = Prometheus.scrape(api);
        List<UUID> asked = new ArrayList<>();
        for (String strategy : families) {
            Map<String, Object> question = new LinkedHashMap<>();
            question.put("documentIds", List.of(book));
            question.put("question", "Who was the benefactor?");
            question.put("strategy", strategy);
            question.put("waitSeconds", 60);
            UUID id = UUID.fromString(api.ask(question).get("id").asString());
            JsonNode answered = api.awaitQuestion(id, java.time.Duration.ofMinutes(3));
            assertThat(answered.get("status").asString())
                    .as(strategy + ": " + answered)
                    .isEqualTo("DONE");
            asked.add(id);
        }

        Prometheus after = counted(before, families.size());
        for (String strategy : families) {
            assertThat(after.since(before, "lorekeeper_questions_started_total", "strategy", strategy))
                    .as(strategy)
                    .isEqualTo(1);
            assertThat(after.since(
                            before, "lorekeeper_questions_finished_total", "strategy", strategy, "status", "done"))
                    .as(strategy)
                    .isEqualTo(1);
            assertThat(after.since(
                            before, "lorekeeper_question_run_seconds_count", "strategy", strategy, "status", "done"))
                    .as(strategy)
                    .isEqualTo(1);
        }
        // the document's memories are built before the first scrape: every call since is one of these questions'
        List<Map<String, Object>> logged =
                jdbc.sql("""
                        SELECT role, sum(prompt_tokens) AS prompt, sum(completion_tokens) AS completion,
                               count(*) FILTER (WHERE outcome = 'ok') AS ok
                        FROM llm_call WHERE question_id IN (:ids) GROUP BY role""").param("ids", asked).query().listOfRows();
        assertThat(logged).extracting(r -> r.get("role")).contains("answerer");
        for (Map<String, Object> row : logged) {
            String role = (String) row.get("role");
            assertThat(after.since(before, "lorekeeper_llm_tokens_total", "role", role, "type", "prompt"))
                    .as(role + " prompt tokens")
                    .isCloseTo(((Number) row.get("prompt")).doubleValue(), within(0.001));
            assertThat(after.since(before, "lorekeeper_llm_tokens_total", "role", role, "type", "completion"))
                    .as(role + " completion tokens")
                    .isCloseTo(((Number) row.get("completion")).doubleValue(), within(0.001));
            assertThat(after.since(before, "lorekeeper_llm_call_seconds_count", "role", role, "outcome", "ok"))
                    .as(role + " calls")
                    .isEqualTo(((Number) row.get("ok")).doubleValue());
        }
        assertOnlyBoundedLabels(after, asked);
    }

    /** The scrape once {@code questions} more questions are counted as finished than {@code before} (10 s at most). */
    private Prometheus counted(Prometheus before, int questions) {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(10).toNanos();
        Prometheus now = Prometheus.scrape(api);
        while (now.since(before, "lorekeeper_questions_finished_total") < questions && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            now = Prometheus.scrape(api);
        }
        return now;
    }

    /** No tenant label (the operator has not enabled it), and no label whose values grow with the data. */
    static void assertOnlyBoundedLabels(Prometheus scrape, List<UUID> ids) {
        List<String> unbounded = new ArrayList<>();
        for (Prometheus.Sample sample : scrape.samples()) {
            if (!sample.name().startsWith("lorekeeper_") && !sample.name().startsWith("gen_ai_")) {
                continue;
            }
            sample.labels().forEach((label, value) -> {
                if (!BOUNDED_LABELS.contains(label) || UUID_LIKE.matcher(value).matches()) {
                    unbounded.add(sample.name() + "{" + label + "=" + value + "}");
                }
            });
        }
        assertThat(unbounded)
                .as("labels outside the bounded set, or carrying ids")
                .isEmpty();
        assertThat(scrape.samples())
                .as("no sample names a question")
                .noneMatch(s -> ids.stream().anyMatch(id -> s.labels().containsValue(id.toString())));
        assertThat(scrape.samples()).noneMatch(s -> s.labels().containsKey("tenant"));
    }

    private JsonNode ask(String question, String strategy, Map<String, Object> options) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("documentIds", List.of(story));
        body.put("question", question);
        body.put("strategy", strategy);
        if (!options.isEmpty()) {
            body.put("options", options);
        }
        body.put("waitSeconds", 60);
        return api.ask(body);
    }

    private static String json(Object value) {
        return JsonMapper.builder().build().writeValueAsString(value);
    }
}
