package io.lorekeeper.llm;

import static io.lorekeeper.llm.FakeOpenAi.API_KEY;
import static io.lorekeeper.llm.FakeOpenAi.completion;
import static io.lorekeeper.llm.FakeOpenAi.tooManyRequests;
import static io.lorekeeper.llm.FakeOpenAi.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.platform.RetryLaterException;
import tools.jackson.databind.JsonNode;

/**
 * The gateway over the real HTTP path (Spring AI {@code OpenAiChatModel} on the openai-java SDK)
 * against {@link FakeOpenAi}: what goes on the wire, what comes back, and what is recorded.
 */
@FakeOpenAiTest
@ExtendWith(OutputCaptureExtension.class)
class FakeOpenAiGatewayTest {

    private static final Logger log = LoggerFactory.getLogger(FakeOpenAiGatewayTest.class);

    /** What the structured calls bind to. */
    record Verdict(
            @NotBlank String answer, @Min(0) @Max(100) int confidence) {}

    @Autowired
    LlmGateway gateway;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    LlmUsage usage;

    private final FakeOpenAi fake = FakeOpenAi.get();
    private UUID questionId;
    private LlmSession session;

    @BeforeEach
    void setUp() {
        assertThat(fake.allRequestCount())
                .as("@FakeOpenAiTest resets the fake before each test")
                .isZero();
        questionId = UUID.randomUUID();
        session = gateway.open(CallScope.question(UUID.randomUUID(), questionId), Budget.unlimited());
    }

    /** Variables for test/echo; the nonce keeps replies of other tests (and runs) out of the response cache. */
    private static Map<String, Object> echo(String word) {
        return Map.of("word", word, "nonce", UUID.randomUUID().toString());
    }

    private static Map<String, Object> verdict() {
        return Map.of(
                "question",
                "Who sent Pip the money?",
                "passage",
                "It was Magwitch, the convict, all along.",
                "nonce",
                UUID.randomUUID().toString());
    }

    record Row(
            String role,
            String profile,
            String model,
            String template,
            long promptTokens,
            long completionTokens,
            long latencyMs,
            boolean cacheHit,
            String outcome,
            String error) {}

    private List<Row> calls() {
        return jdbc.sql("""
                SELECT role, profile, model, template, prompt_tokens, completion_tokens, latency_ms, cache_hit, outcome, error
                FROM llm_call WHERE question_id = ? ORDER BY id""")
                .param(questionId)
                .query((rs, n) -> new Row(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getLong(5),
                        rs.getLong(6),
                        rs.getLong(7),
                        rs.getBoolean(8),
                        rs.getString(9),
                        rs.getString(10)))
                .list();
    }

    // ------------------------------------------------------------------ the request on the wire

    @Test
    void sendsTheKeyAsBearerTheProfileModelAndTheRenderedPromptAndRecordsUsage() {
        fake.always(completion("pong", 123, 4));

        String reply = session.text(Role.ANSWERER, "test/echo", echo("pong"));

        assertThat(reply).isEqualTo("pong");
        assertThat(fake.requests()).hasSize(1);
        FakeOpenAi.Request request = fake.requests().getFirst();
        assertThat(request.authorization()).isEqualTo("Bearer " + API_KEY);
        assertThat(request.contentType()).startsWith("application/json");
        assertThat(request.model()).isEqualTo(FakeOpenAi.MODEL);
        assertThat(request.body().path("temperature").asDouble()).isZero();
        assertThat(request.body().path("max_tokens").asInt())
                .as("the answerer role's default limit")
                .isEqualTo(2048);
        assertThat(request.body().has("stream")).as("no streaming").isFalse();
        assertThat(request.hasJsonSchema()).isFalse();
        assertThat(request.hasTools()).isFalse();
        assertThat(request.messages())
                .extracting(m -> m.path("role").asString())
                .containsExactly("system", "user");
        assertThat(request.lastText("system"))
                .startsWith("[task: test/echo]\n")
                .contains("Answer with one short word.");
        assertThat(request.lastText("user")).startsWith("Say pong.");

        assertThat(calls()).singleElement().satisfies(row -> {
            assertThat(row.role()).isEqualTo("answerer");
            assertThat(row.profile()).isEqualTo("default");
            assertThat(row.model()).isEqualTo(FakeOpenAi.MODEL);
            assertThat(row.template()).isEqualTo("test/echo");
            assertThat(row.promptTokens()).isEqualTo(123);
            assertThat(row.completionTokens()).isEqualTo(4);
            assertThat(row.cacheHit()).isFalse();
            assertThat(row.outcome()).isEqualTo("ok");
            assertThat(row.error()).isNull();
        });
        assertThat(session.budget().calls()).isEqualTo(1);
        assertThat(session.budget().tokens()).isEqualTo(127);
    }

    @Test
    void reasoningModelProfilesSendMaxCompletionTokensAndNoTemperature() {
        fake.always(completion("pong"));

        session.text(Role.BUILDER, "test/echo", echo("pong"));

        FakeOpenAi.Request request = fake.requests().getFirst();
        assertThat(request.body().path("max_completion_tokens").asInt())
                .as("the builder's default limit plus room for hidden reasoning")
                .isEqualTo(8_192 + 16_384);
        assertThat(request.body().has("max_tokens")).isFalse();
        assertThat(request.body().has("temperature")).isFalse();
    }

    @Test
    void eachRoleGetsAnOutputLimitThatFitsWhatItReturns() {
        fake.always(completion("pong"));

        session.text(Role.ANSWERER, "test/echo", echo("a"));
        session.text(Role.RESEARCHER, "test/echo", echo("b"));

        assertThat(fake.requests())
                .extracting(r -> r.body().path("max_tokens").asInt())
                .containsExactly(2_048, 8_192);
    }

    @Test
    void aReplyCutAtTheOutputLimitIsAskedAgainWithTwiceTheLimitThenRefusedNamingTheSettingToRaise() {
        fake.always(FakeOpenAi.truncated("{\"answer\": \"Magw"));
        List<LlmSession.ReplyIssue> issues = new java.util.ArrayList<>();

        assertThatThrownBy(() -> session.reportIssuesTo(issues::add)
                        .structured(Role.ANSWERER, "test/verdict", verdict(), Verdict.class))
                .isInstanceOf(TruncatedReplyException.class)
                .isInstanceOf(UnusableReplyException.class)
                .hasMessageContaining("cut at the output limit of 4096 tokens")
                .hasMessageContaining("lorekeeper.llm.max-output-tokens");
        assertThat(fake.requests())
                .as("one retry with twice the limit, and no repair call: it would be cut the same way")
                .extracting(r -> r.body().path("max_tokens").asInt())
                .containsExactly(2_048, 4_096);
        assertThat(calls()).extracting(Row::outcome).containsExactly("truncated", "truncated");
        assertThat(issues).extracting(LlmSession.ReplyIssue::kind).containsExactly("truncated");
        assertThat(issues.getFirst().reason())
                .contains("lorekeeper.llm.max-output-tokens")
                .contains("asked again with a limit of 4096 tokens");
    }

    @Test
    void aCutReplyIsUsedWhenTheLargerLimitLetsTheModelFinish() {
        fake.sequence(
                FakeOpenAi.truncated("{\"answer\": \"Magw"),
                completion("{\"answer\": \"Magwitch\", \"confidence\": 90}"));

        Verdict verdict = session.structured(Role.ANSWERER, "test/verdict", verdict(), Verdict.class);

        assertThat(verdict).isEqualTo(new Verdict("Magwitch", 90));
        assertThat(calls()).extracting(Row::outcome).containsExactly("truncated", "ok");
    }

    record Names(@jakarta.validation.constraints.NotEmpty List<@NotBlank String> names) {}

    @Test
    void aListCutTwiceKeepsItsCompleteItemsAndSaysWhatToRaise() {
        fake.always(FakeOpenAi.truncated("{\"names\": [\"Pip\", \"Joe\", \"Magw"));
        List<LlmSession.ReplyIssue> issues = new java.util.ArrayList<>();

        Names names =
                session.reportIssuesTo(issues::add).structured(Role.ANSWERER, "test/verdict", verdict(), Names.class);

        assertThat(names.names()).containsExactly("Pip", "Joe");
        assertThat(issues).extracting(LlmSession.ReplyIssue::kind).containsExactly("truncated", "truncated");
        assertThat(issues.getLast().reason())
                .contains("kept the complete part")
                .contains("lorekeeper.llm.max-output-tokens");
    }

    @Test
    void noLargerRetryWhenTheContextWindowHasNoRoomForIt() {
        ModelProfile roomy = new ModelProfile(
                "default", null, null, "m", 0, 2_048, 128_000, null, 1, 0, Duration.ofSeconds(5), false);
        ModelProfile tight =
                new ModelProfile("default", null, null, "m", 0, 2_048, 3_000, null, 1, 0, Duration.ofSeconds(5), false);
        List<org.springframework.ai.chat.messages.Message> prompt =
                List.of(new org.springframework.ai.chat.messages.UserMessage("word ".repeat(200)));

        assertThat(LlmSession.largerLimit(request(roomy, prompt))).isEqualTo(4_096);
        assertThat(LlmSession.largerLimit(request(tight, prompt)))
                .as("3,000 tokens of window leave no room for a quarter more reply")
                .isZero();
    }

    private static ChatCaller.Request request(
            ModelProfile profile, List<org.springframework.ai.chat.messages.Message> messages) {
        return new ChatCaller.Request(
                CallScope.question(UUID.randomUUID(), UUID.randomUUID()),
                Role.ANSWERER,
                profile,
                "test/verdict",
                messages,
                null,
                null);
    }

    @Test
    void aPlainTextFinalAnswerIsKeptWhenTheRepairHasNoJsonEither() {
        fake.sequence(
                completion("<think>the passage names him</think>It was Magwitch."),
                completion("Magwitch, the convict."));
        List<LlmSession.ReplyIssue> issues = new java.util.ArrayList<>();

        Verdict verdict = session.reportIssuesTo(issues::add)
                .structuredOrText(
                        Role.ANSWERER, "test/verdict", verdict(), Verdict.class, text -> new Verdict(text, 10));

        assertThat(verdict).isEqualTo(new Verdict("It was Magwitch.", 10));
        assertThat(fake.requestCount()).as("one repair was tried first").isEqualTo(2);
        assertThat(issues).extracting(LlmSession.ReplyIssue::kind).containsExactly("plain-text");
    }

    @Test
    void theSchemaOnTheWireCarriesTheBoundsTheCodeChecks() {
        fake.always(completion("{\"answer\": \"Magwitch\", \"confidence\": 92}"));

        session.structured(Role.ANSWERER, "test/verdict", verdict(), Verdict.class);

        JsonNode confidence = fake.requests()
                .getFirst()
                .body()
                .path("response_format")
                .path("json_schema")
                .path("schema")
                .path("properties")
                .path("confidence");
        assertThat(confidence.path("minimum").asInt()).isZero();
        assertThat(confidence.path("maximum").asInt()).isEqualTo(100);
    }

    // ------------------------------------------------------------------ structured output

    @Test
    void structuredSendsAStrictJsonSchemaAndBindsTheValidatedRecord() {
        fake.reply(
                "```json\n{\"answer\": \"Magwitch\", \"confidence\": 92, \"note\": \"extra fields are ignored\"}\n```");

        Verdict verdict = session.structured(Role.ANSWERER, "test/verdict", verdict(), Verdict.class);

        assertThat(verdict).isEqualTo(new Verdict("Magwitch", 92));
        FakeOpenAi.Request request = fake.requests().getFirst();
        assertThat(request.hasJsonSchema()).isTrue();
        JsonNode jsonSchema = request.jsonSchema().orElseThrow();
        assertThat(jsonSchema.path("name").asString()).isNotBlank();
        assertThat(jsonSchema.path("strict").asBoolean()).isTrue();
        JsonNode schema = jsonSchema.path("schema");
        assertThat(schema.path("type").asString()).isEqualTo("object");
        assertThat(schema.path("properties").propertyNames()).containsExactlyInAnyOrder("answer", "confidence");
        // OpenAI rejects a strict schema unless every property is required and no others are allowed
        assertThat(schema.path("required").valueStream().map(JsonNode::asString).toList())
                .containsExactlyInAnyOrder("answer", "confidence");
        assertThat(schema.path("additionalProperties").isBoolean()
                        && !schema.path("additionalProperties").asBoolean())
                .as("additionalProperties: false in " + schema)
                .isTrue();
        // native mode: the schema travels in response_format, not in the prompt
        assertThat(request.lastText("system")).doesNotContain("\"properties\"");
        assertThat(calls()).extracting(Row::template, Row::outcome).containsExactly(tuple("test/verdict", "ok"));
    }

    @Test
    void promptModeDescribesTheSchemaInTheSystemPromptAndSendsNoResponseFormat() {
        fake.reply(
                "Sure! Here is the JSON you asked for: {\"answer\": \"Magwitch\", \"confidence\": 80} Let me know {if} you need more.");

        Verdict verdict = session.structured(Role.MEMORIZER, "test/verdict", verdict(), Verdict.class);

        assertThat(verdict).isEqualTo(new Verdict("Magwitch", 80));
        FakeOpenAi.Request request = fake.requests().getFirst();
        assertThat(request.body().has("response_format")).isFalse();
        assertThat(request.lastText("system"))
                .contains("JSON schema")
                .contains("\"answer\"")
                .contains("\"confidence\"");
        assertThat(calls()).extracting(Row::profile).containsExactly("prompt-mode");
    }

    @Test
    void aReplyThatFailsValidationGetsExactlyOneRepairCallShowingTheError() {
        fake.sequence(
                completion("{\"answer\": \"\", \"confidence\": 92}"),
                completion("{\"answer\": \"Magwitch\", \"confidence\": 92}"));

        Verdict verdict = session.structured(Role.ANSWERER, "test/verdict", verdict(), Verdict.class);

        assertThat(verdict).isEqualTo(new Verdict("Magwitch", 92));
        List<FakeOpenAi.Request> requests = fake.requests();
        assertThat(requests).hasSize(2);
        FakeOpenAi.Request repair = requests.get(1);
        assertThat(repair.hasJsonSchema())
                .as("the repair call keeps the schema")
                .isTrue();
        // the conversation so far, the model's own bad reply, then the error as the last user message
        assertThat(repair.messages())
                .extracting(m -> m.path("role").asString())
                .containsExactly("system", "user", "assistant", "user");
        assertThat(FakeOpenAi.Request.text(repair.messages().get(2)))
                .isEqualTo("{\"answer\": \"\", \"confidence\": 92}");
        assertThat(repair.lastMessage().path("role").asString()).isEqualTo("user");
        assertThat(FakeOpenAi.Request.text(repair.lastMessage())).contains("answer must not be blank");
        assertThat(calls()).extracting(Row::template).containsExactly("test/verdict", "test/verdict#repair");
    }

    @Test
    void aSecondInvalidReplyRaisesLlmExceptionAfterExactlyOneRepair() {
        fake.reply("{\"answer\": \"Magwitch\", \"confidence\": 250}");

        assertThatThrownBy(() -> session.structured(Role.ANSWERER, "test/verdict", verdict(), Verdict.class))
                .as("the model answered: a step may skip this, unlike a failing endpoint")
                .isInstanceOf(UnusableReplyException.class)
                .hasMessageContaining("test/verdict")
                .hasMessageContaining("confidence must be less than or equal to 100");
        assertThat(fake.requestCount()).isEqualTo(2);
        assertThat(FakeOpenAi.Request.text(fake.requests().get(1).lastMessage()))
                .contains("confidence must be less than or equal to 100");
    }

    @Test
    void aReplyThatIsNotJsonAtAllIsRepairedToo() {
        fake.sequence(
                completion("I think it was Magwitch."), completion("{\"answer\": \"Magwitch\", \"confidence\": 70}"));

        Verdict verdict = session.structured(Role.ANSWERER, "test/verdict", verdict(), Verdict.class);

        assertThat(verdict.answer()).isEqualTo("Magwitch");
        assertThat(FakeOpenAi.Request.text(fake.requests().get(1).lastMessage()))
                .contains("not JSON");
    }

    // ------------------------------------------------------------------ retries

    @Test
    void rateLimitsAreRetriedAfterWaitingWhatRetryAfterAsks() {
        fake.rateLimitedThen(3, 1, "finally");

        long started = System.nanoTime();
        String reply = assertTimeoutPreemptively(
                Duration.ofSeconds(60), () -> session.text(Role.ANSWERER, "test/echo", echo("finally")));
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);

        assertThat(reply).isEqualTo("finally");
        assertThat(fake.requestCount()).isEqualTo(4);
        // three waits of Retry-After: 1 s each, not the 50 ms initial backoff of these tests (and not minutes either)
        assertThat(elapsed).isGreaterThanOrEqualTo(Duration.ofSeconds(3)).isLessThan(Duration.ofSeconds(30));
        assertThat(calls()).extracting(Row::outcome).containsExactly("retry", "retry", "retry", "ok");
        assertThat(calls().getFirst().error()).startsWith("HTTP 429").contains("Rate limit reached");
        assertThat(session.budget().calls())
                .as("retries are one call of the budget")
                .isEqualTo(1);
    }

    @Test
    void aRetryAfterLongerThanMaxWaitRequeuesAtOnceInsteadOfWaiting() {
        fake.always(tooManyRequests(600));

        // Waiting at all would mean waiting at least max-wait (60 s): half of that is an unambiguous bound, and a
        // broken gateway fails here instead of hanging the suite for ten minutes.
        Throwable thrown = assertTimeoutPreemptively(
                Duration.ofSeconds(30),
                () -> catchThrowable(() -> session.text(Role.ANSWERER, "test/echo", echo("later"))));

        assertThat(thrown)
                .isInstanceOf(RateLimitedException.class)
                .isInstanceOf(RetryLaterException.class)
                .hasMessageContaining("600 s");
        assertThat(((RetryLaterException) thrown).after()).isEqualTo(Duration.ofSeconds(600));
        assertThat(fake.requestCount())
                .as("no retry: the job is re-queued instead")
                .isEqualTo(1);
        assertThat(calls()).extracting(Row::outcome).containsExactly("rate_limited");
    }

    @Test
    void retryAfterMsIsHonouredToo() {
        fake.sequence(
                FakeOpenAi.error(429, "slow down", "rate_limit_exceeded").withHeader("retry-after-ms", "1500"),
                completion("ok"));

        long started = System.nanoTime();
        assertThat(session.text(Role.ANSWERER, "test/echo", echo("ok"))).isEqualTo("ok");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
        assertThat(fake.requestCount()).isEqualTo(2);
    }

    @Test
    void serverErrorsAreRetriedUpToMaxAttemptsThenFailWithAReadableReason() {
        fake.serverError();

        assertThatThrownBy(() -> session.text(Role.ANSWERER, "test/echo", echo("boom")))
                .isInstanceOf(LlmException.class)
                .isNotInstanceOf(UnusableReplyException.class)
                .hasMessageContaining("default model endpoint failed 5 times")
                .hasMessageContaining("HTTP 500")
                .hasMessageContaining("The server had an error while processing your request");
        assertThat(fake.requestCount()).isEqualTo(5);
        assertThat(calls()).extracting(Row::outcome).containsExactly("retry", "retry", "retry", "retry", "error");
    }

    @Test
    void aRunOfFailedCallsMarksTheEndpointUnreachableAndOneAnswerMarksItReachableAgain() {
        fake.reply("ok");
        session.text(Role.ANSWERER, "test/echo", echo("up"));
        assertThat(gateway.isReachable(Role.ANSWERER)).isTrue();
        assertThat(gateway.isReachable(Role.JUDGE))
                .as("the judge's profile points at a closed port")
                .isFalse();

        fake.serverError();
        assertThatThrownBy(() -> session.text(Role.ANSWERER, "test/echo", echo("down")))
                .isInstanceOf(LlmException.class);
        assertThat(gateway.isReachable(Role.ANSWERER)).as("five 500s in a row").isFalse();
        assertThat(gateway.endpointStatus().detail())
                .contains("calls in a row failed")
                .contains("HTTP 500");

        fake.reset();
        fake.always(FakeOpenAi.error(400, "Invalid 'messages'", "invalid_request_error"));
        assertThatThrownBy(() -> session.text(Role.ANSWERER, "test/echo", echo("refused")))
                .isInstanceOf(LlmException.class);
        assertThat(gateway.isReachable(Role.ANSWERER))
                .as("a refusal is an answer: the endpoint is there")
                .isTrue();
    }

    @Test
    void aServerErrorThenSuccessCostsOneRetry() {
        fake.sequence(FakeOpenAi.error(503, "overloaded", null), completion("ok", 10, 1));

        assertThat(session.text(Role.ANSWERER, "test/echo", echo("ok"))).isEqualTo("ok");
        assertThat(calls())
                .extracting(Row::outcome, Row::promptTokens)
                .containsExactly(tuple("retry", 0L), tuple("ok", 10L));
    }

    @Test
    void clientErrorsOtherThanRateLimitsAreNotRetried() {
        fake.always(FakeOpenAi.error(400, "Invalid value for 'temperature'", "invalid_value"));

        assertThatThrownBy(() -> session.text(Role.ANSWERER, "test/echo", echo("x")))
                .isInstanceOf(LlmException.class)
                .hasMessageContaining("default model call failed")
                .hasMessageContaining("HTTP 400")
                .hasMessageContaining("Invalid value for 'temperature'");
        assertThat(fake.requestCount()).isEqualTo(1);
        assertThat(calls()).extracting(Row::outcome).containsExactly("error");
    }

    @Test
    void aDeadEndpointFailsFastWithAReadableReason() {
        Throwable thrown = assertTimeoutPreemptively(
                Duration.ofSeconds(20),
                () -> catchThrowable(() -> session.text(Role.JUDGE, "test/echo", echo("anyone"))));

        assertThat(thrown)
                .isInstanceOf(LlmException.class)
                .hasMessageContaining("dead model endpoint")
                .hasMessageContaining("connection failed");
        assertThat(fake.allRequestCount())
                .as("the judge's profile does not talk to the fake")
                .isZero();
        assertThat(calls()).extracting(Row::profile).containsOnly("dead");
        assertThat(calls()).extracting(Row::outcome).endsWith("error");
    }

    @Test
    void aReplySlowerThanTheProfileTimeoutIsRetriedThenFailsInBoundedTime() {
        // the researcher's profile times out after 1 s; the fake answers after 4 s
        fake.delayed(Duration.ofSeconds(4), "too late");

        long started = System.nanoTime();
        Throwable thrown = assertTimeoutPreemptively(
                Duration.ofSeconds(30),
                () -> catchThrowable(() -> session.text(Role.RESEARCHER, "test/echo", echo("late"))));
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);

        assertThat(thrown).isInstanceOf(LlmException.class).hasMessageContaining("timed out");
        assertThat(fake.requestCount()).isEqualTo(5);
        // five 1 s timeouts plus short backoffs; five attempts that each waited for the 4 s reply would take 20 s
        assertThat(elapsed).isGreaterThanOrEqualTo(Duration.ofSeconds(5)).isLessThan(Duration.ofSeconds(19));
        assertThat(calls()).extracting(Row::profile).containsOnly("impatient");
    }

    @Test
    void aTimeoutFollowedByAQuickReplySucceeds() {
        fake.sequence(completion("too late").delayedBy(Duration.ofSeconds(3)), completion("in time"));

        assertThat(session.text(Role.RESEARCHER, "test/echo", echo("x"))).isEqualTo("in time");
        assertThat(calls()).extracting(Row::outcome).containsExactly("retry", "ok");
    }

    @Test
    void aMalformedBodyIsAnLlmExceptionNotAHang() {
        fake.malformed();

        Throwable thrown = assertTimeoutPreemptively(
                Duration.ofSeconds(20),
                () -> catchThrowable(() -> session.text(Role.ANSWERER, "test/echo", echo("x"))));

        assertThat(thrown).isInstanceOf(LlmException.class).hasMessageContaining("not a valid chat completion");
        assertThat(fake.requestCount())
                .as("a body that does not parse will not parse next time either")
                .isEqualTo(1);
        assertThat(calls()).extracting(Row::outcome).containsExactly("error");
    }

    @Test
    void aReplyWithNoChoicesIsAnLlmExceptionAndIsRecorded() {
        fake.always(new FakeOpenAi.Response(
                200,
                Map.of("Content-Type", "application/json"),
                "{\"id\":\"chatcmpl-x\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"gpt-4o-mini\",\"choices\":[],"
                        + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":0,\"total_tokens\":9}}",
                Duration.ZERO));

        assertThatThrownBy(() -> session.text(Role.ANSWERER, "test/echo", echo("x")))
                .isInstanceOf(LlmException.class)
                .hasMessageContaining("no choices");
        assertThat(calls()).extracting(Row::outcome).containsExactly("error");
    }

    // ------------------------------------------------------------------ tools

    @Test
    void theToolLoopRunsTheToolSendsItsResultBackAndParsesTheFinalReply() {
        fake.sequence(
                toolCall("call_abc123", "lookup_source", "{\"node_id\": \"n7\"}"),
                completion("{\"answer\": \"Magwitch\", \"confidence\": 88}"));
        List<String> toolArguments = new ArrayList<>();
        List<String> observed = new ArrayList<>();

        Verdict verdict = session.withTools(
                Role.ANSWERER,
                "test/lookup",
                lookupVariables(),
                List.of(lookupTool(toolArguments)),
                5,
                Verdict.class,
                (round, tool, arguments, result) -> observed.add(round + ":" + tool + ":" + result));

        assertThat(verdict).isEqualTo(new Verdict("Magwitch", 88));
        assertThat(toolArguments).containsExactly("{\"node_id\": \"n7\"}");
        assertThat(observed).containsExactly("1:lookup_source:Magwitch sent the money through Jaggers.");
        List<FakeOpenAi.Request> requests = fake.requests();
        assertThat(requests).hasSize(2);
        FakeOpenAi.Request first = requests.getFirst();
        assertThat(first.toolNames()).containsExactly("lookup_source");
        JsonNode function = first.tool("lookup_source").path("function");
        assertThat(function.path("description").asString()).contains("source text");
        assertThat(function.path("parameters").path("properties").has("node_id"))
                .isTrue();
        assertThat(first.lastText("system"))
                .as("tool loops describe the schema in the prompt")
                .contains("\"confidence\"");

        FakeOpenAi.Request second = requests.get(1);
        assertThat(second.messages())
                .extracting(m -> m.path("role").asString())
                .containsExactly("system", "user", "assistant", "tool");
        JsonNode assistant = second.messages().get(2);
        assertThat(assistant.path("tool_calls").get(0).path("id").asString()).isEqualTo("call_abc123");
        assertThat(assistant
                        .path("tool_calls")
                        .get(0)
                        .path("function")
                        .path("name")
                        .asString())
                .isEqualTo("lookup_source");
        assertThat(assistant
                        .path("tool_calls")
                        .get(0)
                        .path("function")
                        .path("arguments")
                        .asString())
                .isEqualTo("{\"node_id\": \"n7\"}");
        JsonNode toolMessage = second.messages("tool").getFirst();
        assertThat(toolMessage.path("tool_call_id").asString()).isEqualTo("call_abc123");
        assertThat(FakeOpenAi.Request.text(toolMessage)).isEqualTo("Magwitch sent the money through Jaggers.");
        assertThat(second.hasTools()).isTrue();
        assertThat(calls()).extracting(Row::template).containsExactly("test/lookup", "test/lookup");
    }

    @Test
    void whenToolRoundsRunOutOneLastCallWithoutToolsAsksForTheAnswer() {
        fake.sequence(
                toolCall("call_1", "lookup_source", "{\"node_id\": \"n1\"}"),
                toolCall("call_2", "lookup_source", "{\"node_id\": \"n2\"}"),
                completion("{\"answer\": \"Jaggers\", \"confidence\": 40}"));
        List<String> toolArguments = new ArrayList<>();

        Verdict verdict = session.withTools(
                Role.ANSWERER,
                "test/lookup",
                lookupVariables(),
                List.of(lookupTool(toolArguments)),
                2,
                Verdict.class,
                LlmSession.ToolObserver.NONE);

        assertThat(verdict).isEqualTo(new Verdict("Jaggers", 40));
        assertThat(toolArguments).hasSize(2);
        List<FakeOpenAi.Request> requests = fake.requests();
        assertThat(requests).hasSize(3);
        FakeOpenAi.Request last = requests.get(2);
        assertThat(last.hasTools()).isFalse();
        assertThat(last.messages("tool")).hasSize(2);
        assertThat(last.lastText("user")).startsWith("No more tool calls are possible");
        assertThat(calls())
                .extracting(Row::template)
                .containsExactly("test/lookup", "test/lookup", "test/lookup#final");
    }

    @Test
    void anInvalidFinalReplyOfAToolLoopGetsOneRepair() {
        fake.sequence(
                completion("{\"answer\": \"\", \"confidence\": 10}"),
                completion("{\"answer\": \"Pip\", \"confidence\": 10}"));

        Verdict verdict = session.withTools(
                Role.ANSWERER,
                "test/lookup",
                lookupVariables(),
                List.of(lookupTool(new ArrayList<>())),
                3,
                Verdict.class,
                LlmSession.ToolObserver.NONE);

        assertThat(verdict).isEqualTo(new Verdict("Pip", 10));
        assertThat(fake.requestCount()).isEqualTo(2);
        assertThat(FakeOpenAi.Request.text(fake.requests().get(1).lastMessage()))
                .contains("answer must not be blank");
        assertThat(calls()).extracting(Row::template).containsExactly("test/lookup", "test/lookup#repair");
    }

    @Test
    void aToolLoopWhoseRepairFailsTooIsAnLlmException() {
        fake.reply("{\"answer\": \"\", \"confidence\": 10}");

        assertThatThrownBy(() -> session.withTools(
                        Role.ANSWERER,
                        "test/lookup",
                        lookupVariables(),
                        List.of(lookupTool(new ArrayList<>())),
                        3,
                        Verdict.class,
                        LlmSession.ToolObserver.NONE))
                .isInstanceOf(LlmException.class)
                .hasMessageContaining("after one repair")
                .hasMessageContaining("answer must not be blank");
        assertThat(fake.requestCount()).isEqualTo(2);
    }

    private static Map<String, Object> lookupVariables() {
        return Map.of(
                "question",
                "Who was Pip's benefactor?",
                "nodes",
                "n1 Jaggers; n7 the benefactor",
                "nonce",
                UUID.randomUUID().toString());
    }

    private static LlmTool lookupTool(List<String> arguments) {
        return new LlmTool() {
            @Override
            public String name() {
                return "lookup_source";
            }

            @Override
            public String description() {
                return "Returns the source text around a graph node.";
            }

            @Override
            public String parametersSchema() {
                return """
                        {"type": "object", "properties": {"node_id": {"type": "string"}}, "required": ["node_id"]}""";
            }

            @Override
            public String call(String argumentsJson) {
                arguments.add(argumentsJson);
                return "Magwitch sent the money through Jaggers.";
            }
        };
    }

    // ------------------------------------------------------------------ budget and cache

    @Test
    void theBudgetKeepsItsLastCallForTheAnswer() {
        fake.reply("ok");
        LlmSession limited = gateway.open(
                CallScope.question(UUID.randomUUID(), questionId), new Budget(3, 1_000_000, Duration.ofMinutes(1)));

        limited.text(Role.RESEARCHER, "test/echo", echo("one"));
        limited.text(Role.RESEARCHER, "test/echo", echo("two"));
        assertThatThrownBy(() -> limited.text(Role.RESEARCHER, "test/echo", echo("three")))
                .isInstanceOf(BudgetExhaustedException.class)
                .hasMessageContaining("kept for the answer");
        limited.answering().text(Role.ANSWERER, "test/echo", echo("answer"));
        assertThatThrownBy(() -> limited.answering().text(Role.ANSWERER, "test/echo", echo("again")))
                .isInstanceOf(BudgetExhaustedException.class)
                .hasMessageContaining("calls (3)");
        assertThat(fake.requestCount()).isEqualTo(3);
        assertThat(limited.budget().calls()).isEqualTo(3);
        assertThat(limited.answering().calls())
                .as("the answering view shares the session's call log")
                .hasSize(3);
    }

    @Test
    void theTokenBudgetStopsTheCallAfterItIsSpent() {
        fake.always(completion("ok", 900, 200));
        LlmSession limited = gateway.open(
                CallScope.question(UUID.randomUUID(), questionId), new Budget(100, 1_000, Duration.ofMinutes(1)));

        limited.text(Role.ANSWERER, "test/echo", echo("one"));
        assertThatThrownBy(() -> limited.text(Role.ANSWERER, "test/echo", echo("two")))
                .isInstanceOf(BudgetExhaustedException.class)
                .hasMessageContaining("tokens (1100 of 1000)");
        assertThat(fake.requestCount()).isEqualTo(1);
    }

    @Test
    void aRetryAfterLongerThanTheRemainingWallTimeEndsTheBudgetInsteadOfWaiting() {
        // 50 s: within max-wait (60 s), so the gateway would wait in-process, but beyond the question's 20 s
        fake.always(tooManyRequests(50));
        LlmSession limited = gateway.open(
                CallScope.question(UUID.randomUUID(), questionId), new Budget(100, 1_000_000, Duration.ofSeconds(20)));

        long started = System.nanoTime();
        Throwable thrown = assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> catchThrowable(() -> limited.text(Role.ANSWERER, "test/echo", echo("x"))));
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);

        assertThat(thrown)
                .isInstanceOf(BudgetExhaustedException.class)
                .hasMessageContaining("wall time")
                .hasMessageContaining("50 s");
        // it did not sleep away the rest of the budget either: the budget ends at once (20 s is far beyond one call)
        assertThat(elapsed).isLessThan(Duration.ofSeconds(20));
        assertThat(fake.requestCount()).isEqualTo(1);
        assertThat(calls()).extracting(Row::outcome).containsExactly("error");
    }

    @Test
    void aTemperatureZeroCallIsAnsweredFromTheCacheTheSecondTime() {
        fake.always(completion("cached answer", 321, 9));
        Map<String, Object> variables = echo("cache");

        String first = session.text(Role.ANSWERER, "test/echo", variables);
        String second = session.text(Role.ANSWERER, "test/echo", variables);

        assertThat(second).isEqualTo(first).isEqualTo("cached answer");
        assertThat(fake.requestCount()).isEqualTo(1);
        assertThat(calls())
                .extracting(Row::cacheHit, Row::promptTokens, Row::completionTokens, Row::outcome)
                .containsExactly(tuple(false, 321L, 9L, "ok"), tuple(true, 321L, 9L, "ok"));
        Long cacheHits = jdbc.sql("SELECT count(*) FROM llm_call WHERE question_id = ? AND cache_hit")
                .param(questionId)
                .query(Long.class)
                .single();
        assertThat(cacheHits).isEqualTo(1);
        // the question's usage: both calls, one of them a hit that billed no tokens
        assertThat(usage.ofQuestion(questionId))
                .isEqualTo(new LlmUsage.Totals(2, 321, 9, 1, calls().getFirst().latencyMs()));
        // a different prompt is a different key
        session.text(Role.ANSWERER, "test/echo", echo("cache"));
        assertThat(fake.requestCount()).isEqualTo(2);
    }

    @Test
    void aCachedReplyIsNeverServedToAnotherTenant() {
        fake.always(completion("the reply", 40, 4));
        Map<String, Object> variables = echo("tenants");
        UUID tenantA = UUID.randomUUID();
        UUID tenantB = UUID.randomUUID();

        gateway.open(CallScope.tenant(tenantA), Budget.unlimited()).text(Role.ANSWERER, "test/echo", variables);
        gateway.open(CallScope.tenant(tenantA), Budget.unlimited()).text(Role.ANSWERER, "test/echo", variables);
        assertThat(fake.requestCount())
                .as("the same tenant's second call is a hit")
                .isEqualTo(1);

        // The very same prompt from another tenant goes to the model: a hit would tell B what A asked.
        gateway.open(CallScope.tenant(tenantB), Budget.unlimited()).text(Role.ANSWERER, "test/echo", variables);
        assertThat(fake.requestCount()).isEqualTo(2);
        List<Boolean> hitsOfB = jdbc.sql("SELECT cache_hit FROM llm_call WHERE tenant_id = ?")
                .param(tenantB)
                .query(Boolean.class)
                .list();
        assertThat(hitsOfB).containsExactly(false);
        // Each entry is stored with its tenant, to be deleted with it.
        for (UUID tenant : List.of(tenantA, tenantB)) {
            assertThat(jdbc.sql("SELECT count(*) FROM llm_cache WHERE tenant_id = ?")
                            .param(tenant)
                            .query(Long.class)
                            .single())
                    .isEqualTo(1);
        }
    }

    @Test
    void aQuestionsUsageCountsARetriedCallOnceAndEveryAttemptsWait() {
        fake.sequence(FakeOpenAi.error(503, "overloaded", null), completion("pong", 50, 2));

        session.text(Role.ANSWERER, "test/echo", echo("retry"));

        assertThat(calls()).extracting(Row::outcome).containsExactly("retry", "ok");
        LlmUsage.Totals totals = usage.ofQuestion(questionId);
        assertThat(totals.calls()).isEqualTo(1);
        assertThat(totals.promptTokens()).isEqualTo(50);
        assertThat(totals.completionTokens()).isEqualTo(2);
        assertThat(totals.cacheHits()).isZero();
        assertThat(totals.llmMs())
                .isEqualTo(calls().stream().mapToLong(Row::latencyMs).sum());
        assertThat(usage.ofQuestion(UUID.randomUUID())).isEqualTo(new LlmUsage.Totals(0, 0, 0, 0, 0));
    }

    @Test
    void aCachedToolLoopReplaysTheToolCallsWithoutHttp() {
        fake.sequence(
                toolCall("call_9", "lookup_source", "{\"node_id\": \"n9\"}"),
                completion("{\"answer\": \"Magwitch\", \"confidence\": 77}"));
        Map<String, Object> variables = lookupVariables();
        List<String> toolArguments = new ArrayList<>();

        Verdict first = session.withTools(
                Role.ANSWERER,
                "test/lookup",
                variables,
                List.of(lookupTool(toolArguments)),
                5,
                Verdict.class,
                LlmSession.ToolObserver.NONE);
        Verdict second = session.withTools(
                Role.ANSWERER,
                "test/lookup",
                variables,
                List.of(lookupTool(toolArguments)),
                5,
                Verdict.class,
                LlmSession.ToolObserver.NONE);

        assertThat(second).isEqualTo(first);
        assertThat(fake.requestCount()).isEqualTo(2);
        assertThat(toolArguments).as("the tool still runs on replay").hasSize(2);
        assertThat(calls()).extracting(Row::cacheHit).containsExactly(false, false, true, true);
    }

    @Test
    void aCallAboveTemperatureZeroIsNeverCached() {
        fake.reply("creative");
        Map<String, Object> variables = echo("warm");

        session.text(Role.PLANNER, "test/echo", variables);
        session.text(Role.PLANNER, "test/echo", variables);

        assertThat(fake.requestCount()).isEqualTo(2);
        assertThat(fake.requests().getFirst().body().path("temperature").asDouble())
                .isEqualTo(0.7);
        assertThat(calls()).extracting(Row::cacheHit).containsExactly(false, false);
    }

    // ------------------------------------------------------------------ the key stays secret

    @Test
    void theApiKeyNeverReachesTheCallLogTheExceptionOrTheLogs(CapturedOutput output) {
        // an endpoint (or a proxy in front of it) that echoes the key in its error messages
        fake.sequence(
                FakeOpenAi.error(500, "upstream rejected key " + API_KEY, null),
                FakeOpenAi.error(
                        401,
                        "Incorrect API key provided: " + API_KEY + ". You can find your API key at "
                                + "https://platform.openai.com/account/api-keys.",
                        "invalid_api_key"));

        Throwable thrown = catchThrowable(() -> session.text(Role.ANSWERER, "test/echo", echo("secret")));
        log.warn("a caller logging the failure with its stack trace", thrown);

        assertThat(thrown)
                .isInstanceOf(LlmException.class)
                .hasMessageContaining("HTTP 401")
                .hasMessageContaining("****");
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            assertThat(String.valueOf(t.getMessage())).doesNotContain(API_KEY);
        }
        assertThat(fake.requestCount()).isEqualTo(2);
        List<Row> rows = calls();
        assertThat(rows).extracting(Row::outcome).containsExactly("retry", "error");
        assertThat(rows)
                .extracting(Row::error)
                .allSatisfy(error -> assertThat(error).contains("****").doesNotContain(API_KEY));
        // the retry was logged (so the check below looks at real log lines), without the key
        assertThat(output.getAll())
                .contains("upstream rejected key ****")
                .contains("a caller logging the failure")
                .doesNotContain(API_KEY);
    }
}
