package io.lorekeeper.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.validation.constraints.NotBlank;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.support.LlmIntegrationTest;

/**
 * The scripted test double behind {@link LlmIntegrationTest}: routing by template, call records,
 * and how scripted failures travel through the gateway's retry policy.
 */
@LlmIntegrationTest
class ScriptedChatModelTest {

    record Verdict(@NotBlank String answer) {}

    @Autowired
    ScriptedChatModel model;

    @Autowired
    LlmGateway gateway;

    @Autowired
    JdbcClient jdbc;

    private UUID questionId;
    private LlmSession session;

    @BeforeEach
    void setUp() {
        model.reset();
        questionId = UUID.randomUUID();
        session = gateway.open(CallScope.question(UUID.randomUUID(), questionId), Budget.unlimited());
    }

    private static Map<String, Object> echo(String word) {
        return Map.of("word", word, "nonce", UUID.randomUUID().toString());
    }

    private static Map<String, Object> verdict() {
        return Map.of(
                "question",
                "Who?",
                "passage",
                "Magwitch.",
                "nonce",
                UUID.randomUUID().toString());
    }

    private List<String> outcomes() {
        return jdbc.sql("SELECT outcome FROM llm_call WHERE question_id = ? ORDER BY id")
                .param(questionId)
                .query(String.class)
                .list();
    }

    @Test
    void routesByTemplateServesOneShotRepliesFirstAndRecordsEveryCall() {
        model.on("test/echo").once("first").reply("standing");
        model.on("test/verdict").reply("{\"answer\": \"Magwitch\"}");

        assertThat(session.text(Role.ANSWERER, "test/echo", echo("a"))).isEqualTo("first");
        assertThat(session.structured(Role.JUDGE, "test/verdict", verdict(), Verdict.class))
                .isEqualTo(new Verdict("Magwitch"));
        assertThat(session.text(Role.ANSWERER, "test/echo", echo("b"))).isEqualTo("standing");
        assertThat(session.text(Role.ANSWERER, "test/echo", echo("c"))).isEqualTo("standing");

        assertThat(model.calls())
                .extracting(ScriptedChatModel.Call::template)
                .containsExactly("test/echo", "test/verdict", "test/echo", "test/echo");
        assertThat(model.calls("test/echo")).hasSize(3);
        assertThat(model.on("test/echo").served()).isEqualTo(3);
        ScriptedChatModel.Call call = model.calls("test/echo").getFirst();
        assertThat(call.system()).startsWith("[task: test/echo]");
        assertThat(call.user()).startsWith("Say a.");
        assertThat(call.messages())
                .extracting(m -> m.getMessageType())
                .containsExactly(MessageType.SYSTEM, MessageType.USER);
        // the options the gateway built for the profile reach the model
        assertThat(call.options()).isInstanceOf(OpenAiChatOptions.class);
        assertThat(((OpenAiChatOptions) call.options()).getTemperature()).isZero();
        assertThat(((OpenAiChatOptions) model.calls("test/verdict").getFirst().options()).getResponseFormat())
                .isNotNull();
        // usage computed by the double is recorded like real usage
        assertThat(jdbc.sql("SELECT sum(prompt_tokens) FROM llm_call WHERE question_id = ?")
                        .param(questionId)
                        .query(Long.class)
                        .single())
                .isPositive();
    }

    @Test
    void aTemplateWithoutAScriptFailsLoudly() {
        assertThatThrownBy(() -> session.text(Role.ANSWERER, "test/echo", echo("x")))
                .isInstanceOf(LlmException.class)
                .hasMessageContaining("no script for prompt template 'test/echo'");
        assertThat(model.calls()).hasSize(1);
    }

    @Test
    void repairCallsAreRecordedUnderTheirOwnSuffix() {
        model.on("test/verdict").once("{\"answer\": \"\"}").once("{\"answer\": \"Pip\"}");

        assertThat(session.structured(Role.ANSWERER, "test/verdict", verdict(), Verdict.class))
                .isEqualTo(new Verdict("Pip"));

        assertThat(model.calls())
                .extracting(ScriptedChatModel.Call::template)
                .containsExactly("test/verdict", "test/verdict#repair");
        assertThat(model.calls("test/verdict#repair").getFirst().user()).contains("answer must not be blank");
    }

    @Test
    void aRetryableFailureIsRetriedAndTheCallSucceeds() {
        model.on("test/echo")
                .failOnce(new UncheckedIOException(new IOException("connection reset")))
                .reply("recovered");

        assertThat(session.text(Role.ANSWERER, "test/echo", echo("x"))).isEqualTo("recovered");

        assertThat(model.on("test/echo").served()).isEqualTo(2);
        assertThat(outcomes()).containsExactly("retry", "ok");
    }

    @Test
    void retryableFailuresSurfaceAsLlmExceptionOnlyWhenTheAttemptsAreSpent() {
        ScriptedChatModel.Script script = model.on("test/echo");
        for (int i = 0; i < 5; i++) {
            script.failOnce(new RuntimeException(new IOException("connection reset #" + i)));
        }
        script.reply("never reached");

        long started = System.nanoTime();
        assertThatThrownBy(() -> session.text(Role.ANSWERER, "test/echo", echo("x")))
                .isInstanceOf(LlmException.class)
                .hasMessageContaining("failed 5 times")
                .hasMessageContaining("connection reset #4");

        assertThat(script.served()).isEqualTo(5);
        assertThat(outcomes()).containsExactly("retry", "retry", "retry", "retry", "error");
        // four backoffs of 0.5, 1, 2 and 4 s (default settings) with jitter down to half: at least 3.75 s
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(3750));
    }

    @Test
    void aNonRetryableFailureSurfacesAtOnce() {
        model.on("test/echo")
                .failOnce(new IllegalStateException("scripted programming error"))
                .reply("never reached");

        assertThatThrownBy(() -> session.text(Role.ANSWERER, "test/echo", echo("x")))
                .isInstanceOf(LlmException.class)
                .hasMessageContaining("IllegalStateException: scripted programming error")
                .hasRootCauseInstanceOf(IllegalStateException.class);

        assertThat(model.on("test/echo").served()).isEqualTo(1);
        assertThat(outcomes()).containsExactly("error");
    }

    @Test
    void toolCallsScriptedForATemplateDriveTheGatewaysLoop() {
        model.on("test/lookup")
                .onceCallTools("lookup_source", "{\"node_id\": \"n3\"}")
                .reply("{\"answer\": \"Estella\"}");
        List<String> seen = new java.util.ArrayList<>();
        LlmTool tool = new LlmTool() {
            public String name() {
                return "lookup_source";
            }

            public String description() {
                return "source around a node";
            }

            public String parametersSchema() {
                return "{\"type\": \"object\", \"properties\": {\"node_id\": {\"type\": \"string\"}}}";
            }

            public String call(String arguments) {
                seen.add(arguments);
                return "Estella was adopted by Miss Havisham.";
            }
        };

        Verdict verdict = session.withTools(
                Role.ANSWERER,
                "test/lookup",
                Map.of(
                        "question",
                        "Who?",
                        "nodes",
                        "n3",
                        "nonce",
                        UUID.randomUUID().toString()),
                List.of(tool),
                3,
                Verdict.class,
                LlmSession.ToolObserver.NONE);

        assertThat(verdict).isEqualTo(new Verdict("Estella"));
        assertThat(seen).containsExactly("{\"node_id\": \"n3\"}");
        ScriptedChatModel.Call second = model.calls("test/lookup").get(1);
        assertThat(second.messages().getLast().getMessageType()).isEqualTo(MessageType.TOOL);
    }
}
