package io.lorekeeper.question;

import static io.lorekeeper.support.Problems.assertProblem;
import static io.lorekeeper.support.Problems.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import io.lorekeeper.llm.LlmUsage;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.platform.IllegalTransitionException;
import io.lorekeeper.question.QuestionApi.AskRequest;
import io.lorekeeper.question.QuestionStore.StoredQuestion;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.strategy.AnswerKind;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.support.ControllerSlice;
import tools.jackson.databind.JsonNode;

/**
 * QuestionController at the web edge: the wait bound, how an answer or a pending question is
 * returned, the 404s (an event stream's included), and the 409s of a refused or raced retry.
 * Answering is QuestionApiTest's.
 */
@ControllerSlice
class QuestionControllerTest {

    private static final UUID TENANT = UUID.fromString("7e1a0000-0000-4000-8000-00000000000b");
    private static final Instant ASKED = Instant.parse("2026-11-25T10:00:00Z");

    @Autowired
    MockMvcTester mvc;

    @Autowired
    QuestionIntake intake;

    @Autowired
    QuestionStore store;

    @Autowired
    QuestionEvents events;

    @Autowired
    LlmUsage usage;

    @Autowired
    CurrentTenant tenant;

    private final UUID id = UUID.randomUUID();
    private final UUID document = UUID.randomUUID();

    @BeforeEach
    void caller() {
        when(tenant.id()).thenReturn(TENANT);
        when(usage.ofQuestion(any())).thenReturn(new LlmUsage.Totals(2, 300, 40, 1, 850));
    }

    @Test
    void aWaitOutsideZeroToTheConfiguredMaximumIsRefusedBeforeTheQuestionIsStored() {
        // lorekeeper.questions.max-wait is 60s in application.yml
        assertProblem(ask("\"waitSeconds\": -1"), 400, "invalid-request", "waitSeconds");
        JsonNode tooLong = assertProblem(ask("\"waitSeconds\": 61"), 400, "invalid-request", "waitSeconds");
        assertThat(tooLong.path("detail").asString()).contains("between 0 and 60");
        assertProblem(ask("\"waitSeconds\": \"soon\""), 400, "malformed-request", "waitSeconds");

        verifyNoInteractions(intake, store);
    }

    @Test
    void aQuestionReachesIntakeAsSentAndAnAnswerInTimeIs200() throws Exception {
        when(intake.ask(any())).thenReturn(id);
        when(store.awaitFinished(TENANT, id, Duration.ofSeconds(60))).thenReturn(Optional.of(done()));

        MvcTestResult result = ask("""
                "strategy": "rag", "choices": ["at noon", "at dusk"], "options": {"k": 7}, "waitSeconds": 60""");

        assertThat(result).hasStatusOk().hasHeader("Location", "/v1/questions/" + id);
        JsonNode answer = json(result);
        assertThat(answer.path("answer").asString()).isEqualTo("at noon");
        assertThat(answer.path("citations").path(0).path("quote").asString()).isEqualTo("leaves at noon");
        assertThat(answer.path("timings").path("queuedMs").asLong()).isEqualTo(1_000);
        assertThat(answer.path("timings").path("runMs").asLong()).isEqualTo(2_500);
        assertThat(answer.path("usage").path("promptTokens").asLong()).isEqualTo(300);
        assertThat(answer.path("links").path("events").asString()).isEqualTo("/v1/questions/" + id + "/events");
        ArgumentCaptor<AskRequest> sent = ArgumentCaptor.forClass(AskRequest.class);
        verify(intake).ask(sent.capture());
        assertThat(sent.getValue())
                .isEqualTo(new AskRequest(
                        List.of(document),
                        "When does the ferry leave?",
                        "rag",
                        List.of("at noon", "at dusk"),
                        Map.of("k", 7),
                        60,
                        null));
    }

    @Test
    void withoutAWaitAQueuedQuestionIs202AndItsUsageIsNotRead() throws Exception {
        when(intake.ask(any())).thenReturn(id);
        when(store.awaitFinished(TENANT, id, Duration.ZERO)).thenReturn(Optional.of(queued()));

        MvcTestResult result = ask("\"strategy\": \"extractive\"");

        assertThat(result).hasStatus(202).hasHeader("Location", "/v1/questions/" + id);
        assertThat(json(result).path("status").asString()).isEqualTo("QUEUED");
        assertThat(json(result).has("usage")).isFalse();
        verify(usage, never()).ofQuestion(any());
    }

    @Test
    void documentIdsThatAreNotUuidsNameTheirIndex() {
        assertProblem(
                mvc.post()
                        .uri("/v1/questions")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"documentIds\": [\"" + document + "\", \"chapter-2\"], \"question\": \"q\"}")
                        .exchange(),
                400,
                "malformed-request",
                "documentIds[1]");
        verifyNoInteractions(intake);
    }

    @Test
    void aQuestionNotFoundIs404OnEveryReadIncludingTheEventStream() {
        when(store.find(TENANT, id)).thenReturn(Optional.empty());

        assertProblem(mvc.get().uri("/v1/questions/{id}", id).exchange(), 404, "not-found", null);
        assertProblem(mvc.get().uri("/v1/questions/{id}/trace", id).exchange(), 404, "not-found", null);
        // The stream produces only text/event-stream; the problem must still be problem+json, not a 406.
        assertProblem(
                mvc.get()
                        .uri("/v1/questions/{id}/events", id)
                        .accept(MediaType.TEXT_EVENT_STREAM)
                        .exchange(),
                404,
                "not-found",
                null);

        verify(store, never()).trace(any(), anyInt());
        verifyNoInteractions(events);
    }

    @Test
    void aReconnectingStreamResumesAfterItsLastEventIdAndIgnoresOneThatIsNoNumber() {
        when(store.find(TENANT, id)).thenReturn(Optional.of(done()));
        when(events.stream(any(), anyInt(), any())).thenAnswer(call -> {
            SseEmitter emitter = new SseEmitter();
            emitter.complete();
            return emitter;
        });

        mvc.get()
                .uri("/v1/questions/{id}/events", id)
                .header("Last-Event-ID", "7")
                .exchange();
        mvc.get()
                .uri("/v1/questions/{id}/events", id)
                .header("Last-Event-ID", "7; DROP")
                .exchange();

        verify(events).stream(id, 7, Duration.ofMinutes(15));
        verify(events).stream(id, 0, Duration.ofMinutes(15));
    }

    @Test
    void retryingAQuestionThatIsNotFailedIs409NamingItsStateAndTheStateRetryNeeds() {
        doThrow(new IllegalTransitionException(
                        "Question", id, QuestionStatus.DONE, "retry", EnumSet.of(QuestionStatus.FAILED)))
                .when(intake)
                .retry(id);

        JsonNode problem = assertProblem(
                mvc.post().uri("/v1/questions/{id}/retry", id).exchange(), 409, "illegal-transition", null);

        assertThat(problem.path("title").asString()).isEqualTo("Question cannot retry now");
        assertThat(problem.path("state").asString()).isEqualTo("DONE");
        assertThat(problem.path("allowedFrom").toString()).isEqualTo("[\"FAILED\"]");
        assertThat(problem.path("detail").asString()).contains(id.toString());
    }

    @Test
    void aRetryThatLostARaceIs409AndAnUnknownOne404() {
        UUID absent = UUID.randomUUID();
        doThrow(new OptimisticLockingFailureException("version 3 is gone"))
                .when(intake)
                .retry(id);
        doThrow(ApiProblem.notFound("Question", absent)).when(intake).retry(absent);

        JsonNode raced = assertProblem(
                mvc.post().uri("/v1/questions/{id}/retry", id).exchange(), 409, "concurrent-update", null);
        assertProblem(mvc.post().uri("/v1/questions/{id}/retry", absent).exchange(), 404, "not-found", null);

        assertThat(raced.path("detail").asString()).doesNotContain("version 3");
    }

    @Test
    void anAcceptedRetryIs202WithTheQuestionAsItNowStands() {
        when(store.find(TENANT, id)).thenReturn(Optional.of(queued()));

        MvcTestResult result = mvc.post().uri("/v1/questions/{id}/retry", id).exchange();

        assertThat(result).hasStatus(202).hasHeader("Location", "/v1/questions/" + id);
        assertThat(json(result).path("status").asString()).isEqualTo("QUEUED");
        verify(intake).retry(id);
    }

    private MvcTestResult ask(String more) {
        return mvc.post()
                .uri("/v1/questions")
                .contentType(MediaType.APPLICATION_JSON)
                .content("{\"documentIds\": [\"" + document + "\"], \"question\": \"When does the ferry leave?\", "
                        + more + "}")
                .exchange();
    }

    private StoredQuestion queued() {
        return new StoredQuestion(
                id,
                TENANT,
                List.of(document),
                "When does the ferry leave?",
                "extractive",
                null,
                Map.of(),
                QuestionStatus.QUEUED,
                null,
                null,
                null,
                null,
                null,
                null,
                false,
                null,
                ASKED,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    private StoredQuestion done() {
        return new StoredQuestion(
                id,
                TENANT,
                List.of(document),
                "When does the ferry leave?",
                "rag",
                List.of("at noon", "at dusk"),
                Map.of("k", 7),
                QuestionStatus.DONE,
                "at noon",
                "generated",
                AnswerKind.GENERATED,
                0,
                0.75,
                List.of(new Citation(document, 10, 24, "leaves at noon", null)),
                false,
                null,
                ASKED,
                ASKED.plusMillis(1_000),
                ASKED.plusMillis(3_500),
                null,
                null,
                null,
                null,
                null);
    }
}
