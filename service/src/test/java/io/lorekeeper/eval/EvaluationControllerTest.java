package io.lorekeeper.eval;

import static io.lorekeeper.support.Problems.assertProblem;
import static io.lorekeeper.support.Problems.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import java.time.Instant;
import java.util.EnumSet;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.platform.IllegalTransitionException;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.security.TenantQuotas;
import io.lorekeeper.support.ControllerSlice;
import tools.jackson.databind.JsonNode;

/**
 * EvaluationController at the web edge: a run that could not start is refused with the field at
 * fault before anything is stored, an accepted one is queued with its size, and the 404 and 409s.
 * Running evaluations is EvaluationApiTest's.
 */
@ControllerSlice
class EvaluationControllerTest {

    private static final UUID TENANT = UUID.fromString("7e1a0000-0000-4000-8000-00000000000c");
    private static final String ITEMS = """
            "items": [{"id": "q1", "question": "Who rang the bell?", "answer": "Ailsa", "text": "Ailsa rang the bell."},
                      {"id": "q2", "question": "Who kept the lamp?", "answer": "Oswin", "text": "Oswin kept the lamp."}]""";

    @Autowired
    MockMvcTester mvc;

    @Autowired
    EvaluationIntake intake;

    @Autowired
    EvaluationStore store;

    @Autowired
    LlmGateway gateway;

    @Autowired
    TenantQuotas quotas;

    @Autowired
    CurrentTenant tenant;

    private final UUID id = UUID.randomUUID();

    @BeforeEach
    void caller() {
        when(tenant.id()).thenReturn(TENANT);
    }

    @Test
    void aRunThatCouldNotStartIsRefusedNamingTheFieldBeforeAnythingIsStored() {
        assertProblem(
                start("\"dataset\": \"nope\", \"path\": \"x\", \"strategies\": [\"extractive\"]"),
                400,
                "invalid-request",
                "dataset");
        assertProblem(
                start("\"dataset\": \"locomo\", \"path\": \"../../etc/passwd\", \"strategies\": [\"extractive\"]"),
                400,
                "invalid-request",
                "path");
        assertProblem(
                start("\"dataset\": \"locomo\", \"strategies\": [\"extractive\"]"), 400, "invalid-request", "path");
        assertProblem(
                start("\"dataset\": \"locomo\", " + ITEMS + ", \"strategies\": [\"extractive\"]"),
                400,
                "invalid-request",
                "items");
        assertProblem(
                start(
                        "\"dataset\": \"jsonl\", \"items\": [{\"id\": \"x\", \"question\": \"q\"}], \"strategies\": [\"extractive\"]"),
                400,
                "invalid-request",
                "items");
        assertProblem(start("\"dataset\": \"jsonl\", " + ITEMS), 400, "invalid-request", "strategies");
        assertProblem(
                start("\"dataset\": \"jsonl\", " + ITEMS + ", \"strategies\": [\"search:fuzzy\"]"),
                400,
                "invalid-request",
                "strategies[0]");
        assertProblem(
                start("\"dataset\": \"jsonl\", " + ITEMS
                        + ", \"strategies\": [\"search:keyword\", \"search:keyword\"]"),
                400,
                "invalid-request",
                "strategies[1]");
        assertProblem(
                start("\"dataset\": \"jsonl\", " + ITEMS
                        + ", \"strategies\": [\"search:keyword\"], \"concurrency\": 0"),
                400,
                "invalid-request",
                "concurrency");
        assertProblem(
                start("\"dataset\": \"jsonl\", " + ITEMS + ", \"strategies\": [\"search:keyword\"], \"searchK\": 101"),
                400,
                "invalid-request",
                "searchK");
        assertProblem(
                start("\"dataset\": \"jsonl\", " + ITEMS + ", \"strategies\": [\"search:keyword\"], \"limit\": -1"),
                400,
                "invalid-request",
                "limit");

        verifyNoInteractions(intake, quotas);
    }

    @Test
    void theLlmJudgeWithoutAnLlmIsRefusedNamingJudge() {
        when(gateway.isConfigured()).thenReturn(false);

        JsonNode problem = assertProblem(
                start("\"dataset\": \"jsonl\", " + ITEMS + ", \"strategies\": [\"search:keyword\"], \"judge\": true"),
                400,
                "invalid-request",
                "judge");

        assertThat(problem.path("detail").asString()).contains("needs an LLM");
        verifyNoInteractions(intake);
    }

    @Test
    void anAcceptedRunIsQueuedForTheCallersTenantWithOneQuestionPerItemAndStrategy() {
        when(intake.start(eq(TENANT), any(), anyInt())).thenReturn(id);
        when(store.find(TENANT, id)).thenReturn(Optional.of(stored("QUEUED")));

        MvcTestResult result = start("\"dataset\": \"jsonl\", " + ITEMS
                + ", \"strategies\": [\"search:keyword\", \"search:vector\"], " + "\"limit\": 0, \"searchK\": 5");

        assertThat(result).hasStatus(202).hasHeader("Location", "/v1/evaluations/" + id);
        assertThat(json(result).path("status").asString()).isEqualTo("QUEUED");
        assertThat(json(result).path("total").asInt()).isEqualTo(4);
        ArgumentCaptor<StartEvaluation> sent = ArgumentCaptor.forClass(StartEvaluation.class);
        verify(intake).start(eq(TENANT), sent.capture(), eq(4));
        assertThat(sent.getValue().strategies()).containsExactly("search:keyword", "search:vector");
        assertThat(sent.getValue().searchK()).isEqualTo(5);
        assertThat(sent.getValue().items()).hasSize(2);
        verify(quotas).requireTokens();
    }

    @Test
    void aSpentTokenQuotaIs429WithItsRetryAfterAndNothingIsQueued() {
        doThrow(new ApiProblem(
                                ApiProblem.Kind.TOO_MANY_REQUESTS,
                                "quota-exceeded",
                                "LLM token quota exceeded",
                                "spent for today",
                                null)
                        .with("quota", "llm-tokens-per-day")
                        .header("Retry-After", "3600"))
                .when(quotas)
                .requireTokens();

        MvcTestResult result = start("\"dataset\": \"jsonl\", " + ITEMS + ", \"strategies\": [\"search:keyword\"]");

        JsonNode problem = assertProblem(result, 429, "quota-exceeded", null);
        assertThat(problem.path("quota").asString()).isEqualTo("llm-tokens-per-day");
        assertThat(result).hasHeader("Retry-After", "3600");
        verifyNoInteractions(intake);
    }

    @Test
    void anEvaluationNotFoundIs404AndARetryOfOneNotFailedIs409() {
        when(store.find(TENANT, id)).thenReturn(Optional.empty());
        UUID running = UUID.randomUUID();
        doThrow(new IllegalTransitionException(
                        "Evaluation", running, EvaluationStatus.RUNNING, "retry", EnumSet.of(EvaluationStatus.FAILED)))
                .when(intake)
                .retry(TENANT, running);

        assertProblem(mvc.get().uri("/v1/evaluations/{id}", id).exchange(), 404, "not-found", null);
        assertProblem(mvc.get().uri("/v1/evaluations/{id}", "latest").exchange(), 400, "invalid-request", "id");
        JsonNode refused = assertProblem(
                mvc.post().uri("/v1/evaluations/{id}/retry", running).exchange(), 409, "illegal-transition", null);

        assertThat(refused.path("state").asString()).isEqualTo("RUNNING");
        assertThat(refused.path("allowedFrom").toString()).isEqualTo("[\"FAILED\"]");
    }

    private MvcTestResult start(String body) {
        return mvc.post()
                .uri("/v1/evaluations")
                .contentType(MediaType.APPLICATION_JSON)
                .content("{" + body + "}")
                .exchange();
    }

    private EvaluationStore.Stored stored(String status) {
        return new EvaluationStore.Stored(
                id, TENANT, status, "jsonl", null, 0, 4, null, null, Instant.parse("2026-11-25T10:00:00Z"), null, null);
    }
}
