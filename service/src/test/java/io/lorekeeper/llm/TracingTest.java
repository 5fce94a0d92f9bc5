package io.lorekeeper.llm;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.OtlpCollector;
import io.opentelemetry.proto.trace.v1.Span;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Traces as a collector receives them: the service exports over OTLP to {@link OtlpCollector} (the
 * endpoint {@link FakeOpenAi.Initializer} sets), a question is asked through the real client stack, and
 * its trace is read back: one root per question run, a span per strategy step, a span per model call with
 * the GenAI semantic-convention attributes, and no prompt text.
 */
@FakeOpenAiTest
class TracingTest {

    private static final String TEXT = """
            The lighthouse keeper of Skerryvore kept a ledger of every ship that passed. In the winter of 1911 \
            he wrote that the schooner Morwenna had foundered on the reef with all hands.""";

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    private final FakeOpenAi fake = FakeOpenAi.get();
    private final OtlpCollector collector = OtlpCollector.get();

    @Test
    void aQuestionIsOneTraceWithAStepSpanPerStepAndAChatSpanPerModelCallCarryingItsTokensAndNoPrompt() {
        Map<String, Object> document =
                new LinkedHashMap<>(aText(TEXT).titled("Skerryvore ledger").build());
        document.put("profile", "retrieval-only");
        UUID doc = api.ingest(document);
        fake.reply(JsonMapper.builder()
                .build()
                .writeValueAsString(Map.of("answer", "the Morwenna", "confidence", 0.7, "evidence", List.of())));
        String asked = "Which schooner foundered on the reef? " + UUID.randomUUID();

        JsonNode answer =
                api.ask(Map.of("documentIds", List.of(doc), "question", asked, "strategy", "rag", "waitSeconds", 60));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        UUID questionId = UUID.fromString(answer.get("id").asString());
        String traceId = api.traceEvents(answer, "run.status").stream()
                .map(e -> e.path("traceId").asString(null))
                .filter(Objects::nonNull)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no trace id in the RUNNING event: " + answer));
        assertThat(traceId).matches("[0-9a-f]{32}");

        List<Span> trace = awaitSpans(
                traceId, spans -> spans.stream().anyMatch(s -> s.getName().equals("question rag")));
        List<Span> roots =
                trace.stream().filter(s -> s.getParentSpanId().isEmpty()).toList();
        assertThat(roots).extracting(Span::getName).as("one root: the run").containsExactly("question rag");
        assertThat(OtlpCollector.attribute(roots.getFirst(), "lorekeeper.question.id"))
                .isEqualTo(questionId.toString());
        assertThat(OtlpCollector.attribute(roots.getFirst(), "status")).isEqualTo("done");
        assertThat(trace).extracting(Span::getName).contains("step rag.retrieve", "step rag.answer", "search hybrid");
        Span answerStep = named(trace, "step rag.answer");
        assertThat(parentOf(trace, answerStep)).isEqualTo(roots.getFirst());

        long calls = jdbc.sql("SELECT count(*) FROM llm_call WHERE question_id = ? AND NOT cache_hit")
                .param(questionId)
                .query(Long.class)
                .single();
        List<Span> chats = trace.stream()
                .filter(s -> s.getName().equals("chat " + FakeOpenAi.MODEL))
                .toList();
        assertThat(chats)
                .as("one span per model call, as the call log has them")
                .hasSize((int) calls);
        assertThat(calls).isEqualTo(1);
        Span chat = chats.getFirst();
        assertThat(OtlpCollector.attribute(chat, "gen_ai.request.model")).isEqualTo(FakeOpenAi.MODEL);
        assertThat(OtlpCollector.attribute(chat, "gen_ai.operation.name")).isEqualTo("chat");
        assertThat(OtlpCollector.attribute(chat, "gen_ai.usage.input_tokens"))
                .isEqualTo(Integer.toString(FakeOpenAi.DEFAULT_PROMPT_TOKENS));
        assertThat(OtlpCollector.attribute(chat, "gen_ai.usage.output_tokens"))
                .isEqualTo(Integer.toString(FakeOpenAi.DEFAULT_COMPLETION_TOKENS));
        assertThat(OtlpCollector.attribute(chat, "gen_ai.response.finish_reasons"))
                .contains("STOP");
        // the gateway's span holds the call (its limiter wait and retries) under the step that made it
        Span gatewayCall = parentOf(trace, chat);
        assertThat(gatewayCall.getName()).isEqualTo("llm answerer");
        assertThat(OtlpCollector.attribute(gatewayCall, "outcome")).isEqualTo("ok");
        assertThat(OtlpCollector.attribute(gatewayCall, "lorekeeper.llm.template"))
                .isEqualTo("rag/answer");
        assertThat(parentOf(trace, gatewayCall)).isEqualTo(answerStep);

        // no prompt, question, document text or key on any span (the operator has not opted in)
        for (Span span : trace) {
            span.getAttributesList().forEach(a -> {
                String value = a.getValue().toString();
                assertThat(value)
                        .as(span.getName() + " " + a.getKey())
                        .doesNotContain(asked, "Skerryvore", "foundered");
                assertThat(value).doesNotContain(FakeOpenAi.API_KEY);
                assertThat(a.getKey()).doesNotStartWith("gen_ai.input").doesNotStartWith("gen_ai.output");
            });
        }
    }

    private List<Span> awaitSpans(String traceId, Predicate<List<Span>> complete) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        List<Span> spans;
        do {
            spans = collector.spans().stream()
                    .filter(s -> HexFormat.of()
                            .formatHex(s.getTraceId().toByteArray())
                            .equals(traceId))
                    .toList();
            if (complete.test(spans)) {
                return spans;
            }
            sleep();
        } while (System.nanoTime() < deadline);
        throw new AssertionError("trace " + traceId + " incomplete at the collector: "
                + spans.stream().map(Span::getName).toList());
    }

    private static Span named(List<Span> spans, String name) {
        return spans.stream()
                .filter(s -> s.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no span " + name));
    }

    private static Span parentOf(List<Span> spans, Span child) {
        return spans.stream()
                .filter(s -> s.getSpanId().equals(child.getParentSpanId()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("the parent of " + child.getName() + " is not in the trace"));
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
