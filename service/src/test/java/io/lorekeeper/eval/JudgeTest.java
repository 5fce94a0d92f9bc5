package io.lorekeeper.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.eval.EvalRunner.ItemResult;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * The LLM judge, with the scripted model behind the {@code judge} role: verdicts become scores, a
 * judge that fails leaves the score empty without failing the run, and the report averages it.
 */
@LlmIntegrationTest
class JudgeTest {

    private static final String CORRECT = "{\"verdict\": \"correct\", \"reason\": \"names the keeper\"}";
    private static final String INCORRECT = "{\"verdict\": \"incorrect\", \"reason\": \"another thing\"}";

    @Autowired
    ScriptedChatModel model;

    @Autowired
    LlmGateway gateway;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Api api;

    @BeforeEach
    void resetModel() {
        model.reset();
    }

    private static Map<String, Object> document(String marker) {
        return Map.of(
                "title",
                "Nareth " + marker,
                "text",
                "The lighthouse keeper of Nareth Point was Oswin Clay " + marker
                        + ". He kept the lamp for forty years.\n\nThe village baker sold rye bread every morning.");
    }

    private static EvalItem item(String id, Map<String, Object> doc, String question, String answer, String category) {
        return new EvalItem(id, "jsonl", "doc", doc, question, List.of(answer), null, null, null, category);
    }

    @Test
    void gradesEachAnswerKeepsJudgeFailuresOutOfTheMeanAndCountsItsOwnCost() throws Exception {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> doc = document(marker);
        List<EvalItem> items = List.of(
                item("keeper", doc, "Who was the lighthouse keeper of Nareth Point?", "Oswin Clay", "people"),
                item("baker", doc, "What did the village baker sell?", "rye bread", "things"),
                item("lamp", doc, "How long did the keeper keep the lamp?", "forty years", "people"));
        model.on(Judge.TEMPLATE).reply(call -> {
            // all messages, so that the repair call (whose last message is the repair request) is routed alike
            if (call.messages().stream().anyMatch(m -> m.getText().contains("How long did the keeper"))) {
                return "I would rather not say."; // neither the reply nor its repair parses: the judge fails
            }
            return call.user().contains("Who was the lighthouse keeper") ? CORRECT : INCORRECT;
        });
        long judgeCallsBefore = judgeCallsLogged();

        Report report = new EvalRunner(
                        new ServiceClient(api.uri("/").toString(), null), new Judge(gateway, CurrentTenant.DEFAULT))
                .run(
                        new EvalRunner.Request(
                                "jsonl", items, List.of("extractive", "search:hybrid"), null, 2, 5, null, null),
                        (d, t) -> {});

        ItemResult keeper = find(report, "keeper", "extractive");
        assertThat(keeper.judge()).isEqualTo(1.0);
        assertThat(keeper.judgement().verdict()).isEqualTo("correct");
        assertThat(keeper.judgement().reason()).isEqualTo("names the keeper");
        assertThat(keeper.judgement().calls()).isEqualTo(1);
        assertThat(keeper.judgement().tokens()).isPositive();
        assertThat(find(report, "baker", "extractive").judge()).isEqualTo(0.0);
        ItemResult lamp = find(report, "lamp", "extractive");
        assertThat(lamp.status()).isEqualTo("DONE");
        assertThat(lamp.f1()).isNotNull();
        assertThat(lamp.judge()).isNull();
        assertThat(lamp.judgement().error()).contains("did not match its schema");
        assertThat(lamp.judgement().calls()).isEqualTo(2);
        // search probes produce no answer: nothing to judge
        assertThat(find(report, "keeper", "search:hybrid").judgement()).isNull();

        // the prompt carries the question, the gold answer and the candidate, each in its block
        ScriptedChatModel.Call call = model.calls(Judge.TEMPLATE).stream()
                .filter(c -> c.user().contains("Who was the lighthouse keeper"))
                .findFirst()
                .orElseThrow();
        assertThat(call.user())
                .contains("<question>\nWho was the lighthouse keeper of Nareth Point?\n</question>")
                .contains("<reference>\n- Oswin Clay\n</reference>")
                .contains("<candidate>\n" + keeper.answer() + "\n</candidate>");
        assertThat(keeper.answer()).contains("Oswin Clay");

        // the judge mean per category and overall; a judge failure is left out, not counted as wrong
        assertThat(row(report, "extractive", "people").judge()).isEqualTo(1.0);
        assertThat(row(report, "extractive", "things").judge()).isEqualTo(0.0);
        assertThat(row(report, "extractive", "overall").judge()).isCloseTo(0.5, within(1e-9));
        assertThat(row(report, "search:hybrid", "overall").judge()).isNull();
        // judging is the evaluation's cost, not the strategy's
        assertThat(row(report, "extractive", "overall").llmCalls()).isZero();
        assertThat(report.judging().judged()).isEqualTo(2);
        assertThat(report.judging().failed()).isEqualTo(1);
        assertThat(report.judging().calls()).isEqualTo(4);
        assertThat(report.judging().tokens())
                .isEqualTo(items.stream()
                        .mapToLong(i ->
                                find(report, i.id(), "extractive").judgement().tokens())
                        .sum());
        assertThat(report.markdown())
                .contains("| accuracy | judge | evidence recall |")
                .contains("| **overall** | 3 | 0 |")
                .contains("graded 2 answers")
                .contains("could not grade 1")
                .contains("4 LLM calls");
        // recorded in the call log under the judge role, for the tenant and no question
        assertThat(judgeCallsLogged() - judgeCallsBefore).isEqualTo(4);
    }

    @Test
    void anEvaluationStartedOverHttpIsJudgedByItsJob() throws Exception {
        model.on(Judge.TEMPLATE).reply(CORRECT);
        String marker = UUID.randomUUID().toString().substring(0, 8);
        List<Map<String, Object>> items = List.of(Map.of(
                "id",
                "keeper",
                "document",
                document(marker),
                "question",
                "Who was the lighthouse keeper of Nareth Point?",
                "answer",
                "Oswin Clay"));
        Api.Response started = api.post(
                "/v1/evaluations",
                Map.of("dataset", "jsonl", "items", items, "strategies", List.of("extractive"), "judge", true));
        assertThat(started.status()).as(started.body()).isEqualTo(202);

        String location = started.header("Location");
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        JsonNode view = api.get(location).json();
        while (!view.path("status").asString().matches("DONE|FAILED") && System.nanoTime() < deadline) {
            Thread.sleep(250);
            view = api.get(location).json();
        }
        assertThat(view.path("status").asString()).as(view.toString()).isEqualTo("DONE");
        assertThat(view.path("report").path("items").get(0).path("judge").asDouble())
                .isEqualTo(1.0);
        assertThat(view.path("report").path("judging").path("judged").asInt()).isEqualTo(1);
        assertThat(model.calls(Judge.TEMPLATE)).hasSize(1);
    }

    @Test
    void theReferenceListsGoldAnswersOrSaysTheQuestionHasNoAnswer() {
        Map<String, Object> doc = Map.of("title", "t", "text", "x");
        EvalItem two = new EvalItem(
                "q", "hotpotqa", "d", doc, "q?", List.of("Paris", "the city of Paris"), null, null, null, null);
        assertThat(Judge.reference(two)).isEqualTo("- Paris\n- the city of Paris");
        EvalItem adversarial = new EvalItem("q", "locomo", "d", doc, "q?", List.of(""), null, null, null, "5");
        assertThat(Judge.applies(adversarial)).isTrue();
        assertThat(Judge.reference(adversarial)).isEqualTo(Judge.UNANSWERABLE).contains("not available");
        assertThat(Judge.applies(
                        new EvalItem("q", "jsonl", "d", doc, "q?", List.of(), List.of("a", "b"), 0, null, null)))
                .isFalse();
        assertThat(Judge.applies(
                        new EvalItem("q", "ruler", "d", doc, "q?", List.of("1234"), null, null, null, "niah_single")))
                .isFalse();
    }

    private long judgeCallsLogged() {
        return jdbc.sql(
                        "SELECT count(*) FROM llm_call WHERE role = 'judge' AND question_id IS NULL AND document_id IS NULL AND tenant_id = ?")
                .param(CurrentTenant.DEFAULT)
                .query(Long.class)
                .single();
    }

    private static ItemResult find(Report report, String id, String strategy) {
        return report.items().stream()
                .filter(i -> i.itemId().equals(id) && i.strategy().equals(strategy))
                .findFirst()
                .orElseThrow();
    }

    private static Report.Row row(Report report, String strategy, String category) {
        return report.summary().stream()
                .filter(r -> r.strategy().equals(strategy) && r.category().equals(category))
                .findFirst()
                .orElseThrow();
    }
}
