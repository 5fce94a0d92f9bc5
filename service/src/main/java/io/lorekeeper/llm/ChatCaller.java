package io.lorekeeper.llm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.stereotype.Component;

import io.lorekeeper.text.TokenCounter;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import tools.jackson.databind.json.JsonMapper;

/**
 * Makes one model call the careful way: budget check, response cache, client-side limits, retries
 * with backoff that honour Retry-After (or re-queue the job when the window is too long), and a
 * record of the outcome. Everything the gateway sends goes through here.
 */
@Component
class ChatCaller {

    private static final Logger log = LoggerFactory.getLogger(ChatCaller.class);

    private final ChatModelProvider models;
    private final ProfileLimiter limiter;
    private final ResponseCache cache;
    private final CallLog calls;
    private final RetryPolicy retry;
    private final LlmSettings settings;
    private final EndpointProbe endpoint;
    private final JsonMapper json = JsonMapper.builder().build();
    private final LlmMetrics metrics;
    private final ObservationRegistry observations;

    ChatCaller(
            ChatModelProvider models,
            ProfileLimiter limiter,
            ResponseCache cache,
            CallLog calls,
            LlmSettings settings,
            EndpointProbe endpoint,
            LlmMetrics metrics,
            ObservationRegistry observations) {
        this.metrics = metrics;
        this.observations = observations;
        this.endpoint = endpoint;
        this.models = models;
        this.limiter = limiter;
        this.cache = cache;
        this.calls = calls;
        this.settings = settings;
        this.retry = new RetryPolicy(settings.retry());
    }

    /** A request as the gateway built it: messages, and optionally a JSON schema (native mode) and tools. */
    record Request(
            CallScope scope,
            Role role,
            ModelProfile profile,
            String template,
            List<Message> messages,
            String jsonSchema,
            List<ToolCallback> tools) {}

    Reply call(Request request, Budget budget) {
        return call(request, budget, false);
    }

    /** @param forAnswer the call writes the answer, and may use the part of the budget kept for it */
    Reply call(Request request, Budget budget, boolean forAnswer) {
        return call(request, budget, forAnswer, null);
    }

    /**
     * Where a streamed call's text goes as it arrives: each piece in order, then the end of the
     * stream (complete, or cut before the model finished).
     */
    interface Pieces {
        void piece(String text);

        void ended(boolean complete);
    }

    /**
     * @param forAnswer the call writes the answer, and may use the part of the budget kept for it
     * @param pieces    where the reply's text goes as it arrives, when the endpoint streams; null for a
     *                  plain call. An endpoint that cannot stream answers as a plain call; a cached reply
     *                  arrives in one piece.
     */
    Reply call(Request request, Budget budget, boolean forAnswer, Pieces pieces) {
        budget.beginCall(forAnswer);
        LlmCallObservation.Context observed = new LlmCallObservation.Context(request, metrics);
        Observation observation = LlmCallObservation.start(observations, observed);
        try (Observation.Scope scope = observation.openScope()) {
            return call(request, budget, observed, pieces);
        } catch (RuntimeException e) {
            observation.error(e);
            throw e;
        } finally {
            observation.stop();
        }
    }

    /** The call inside its observation: the cache, then attempts until one answers or may not be retried. */
    private Reply call(Request request, Budget budget, LlmCallObservation.Context observed, Pieces pieces) {
        ModelProfile profile = request.profile();
        boolean cacheable = settings.cache().enabled() && profile.temperature() == 0.0;
        String key = cacheable ? ResponseCache.key(canonical(request)) : null;
        if (cacheable) {
            var hit = cache.get(key);
            if (hit.isPresent()) {
                Reply cached = fromCache(request, json.readValue(hit.get().reply(), Reply.class), budget, observed);
                if (pieces != null && cached.text() != null && !cached.text().isEmpty()) {
                    pieces.piece(cached.text());
                    pieces.ended(true);
                }
                return cached;
            }
        }
        long estimate = request.messages().stream()
                .mapToLong(m -> TokenCounter.count(String.valueOf(m.getText())))
                .sum();
        for (int attempt = 1; ; attempt++) {
            long started = System.nanoTime();
            try (AutoCloseable permit = limiter.acquire(profile, estimate)) {
                observed.attempt();
                ChatModel model = models.forProfile(profile);
                ChatResponse response = null;
                if (pieces != null && !plainOnly.contains(streamKey(profile))) {
                    response = streamOrRefused(model, request, pieces);
                    if (response == null) {
                        plainOnly.add(streamKey(profile));
                        log.info(
                                "The {} model does not stream (its endpoint answered a streaming request whole,"
                                        + " refused it, or the model has no streaming API); its answers are asked"
                                        + " for whole from now on",
                                profile.name());
                    } else {
                        observed.streamed();
                    }
                }
                if (response == null) {
                    response = model.call(new Prompt(request.messages(), options(request, false)));
                }
                return received(request, response, millisSince(started), budget, key, observed);
            } catch (StreamingCall.Cut cut) {
                throw cutShort(request, cut, estimate, millisSince(started), budget, observed, pieces);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LlmException("interrupted while waiting for the model", e);
            } catch (LlmException e) {
                throw e;
            } catch (Exception e) {
                sleep(retryWait(request, e, attempt, millisSince(started), budget, observed));
            }
        }
    }

    /** Profiles (by name and endpoint) whose endpoint answered a streaming request without streaming. */
    private final java.util.Set<String> plainOnly = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final StreamingCall streaming = new StreamingCall();

    /**
     * The streamed reply; null when the endpoint cannot stream: it refused the streaming request
     * outright with a client error (a server that rejects {@code stream_options}, say), which the same
     * request asked whole may not meet. Failures worth retrying are thrown as they came.
     */
    private ChatResponse streamOrRefused(ChatModel model, Request request, Pieces pieces) {
        try {
            return streaming.stream(
                    model,
                    new Prompt(request.messages(), options(request, true)),
                    request.profile().timeout(),
                    pieces);
        } catch (StreamingCall.Cut cut) {
            throw cut;
        } catch (RuntimeException refused) {
            RetryPolicy.Failure failure = RetryPolicy.classify(refused);
            if (failure.retryable()
                    || failure.endpointDown()
                    || failure.retryAfter().isPresent()) {
                throw refused;
            }
            log.info(
                    "The {} model endpoint refused a streaming request ({}); asking it whole",
                    request.profile().name(),
                    redact(failure.reason(), request.profile()));
            return null;
        }
    }

    /** Forgets which endpoints did not stream, so each is tried again (tests whose stand-in changes). */
    void forgetPlainOnly() {
        plainOnly.clear();
    }

    private static String streamKey(ModelProfile profile) {
        return profile.name() + "|" + profile.baseUrl();
    }

    /**
     * A stream cut before the model finished: the endpoint worked, and billed what it wrote, so the
     * call is counted with the tokens estimated (no usage arrives in a cut stream) and recorded as
     * {@code cut}. It is not tried again: its draft was already shown, and the strategy answers as after
     * an unusable reply.
     */
    private StreamCutException cutShort(
            Request request,
            StreamingCall.Cut cut,
            long promptEstimate,
            long latency,
            Budget budget,
            LlmCallObservation.Context observed,
            Pieces pieces) {
        observed.streamed();
        long completion = TokenCounter.count(cut.partial());
        budget.spend(promptEstimate, completion);
        budget.tookMillis(latency);
        endpoint.observed(request.profile(), true, null);
        String reason = redact(
                "the streamed reply to " + request.template() + " was cut after "
                        + cut.partial().length() + " characters: " + cut.getMessage(),
                request.profile());
        record(request, promptEstimate, completion, latency, false, "cut", reason, observed);
        pieces.ended(false);
        return new StreamCutException(reason);
    }

    /** Counts a structured reply the session could not use even after its repair call. */
    void unusable(CallScope scope, ModelProfile profile, Role role) {
        metrics.unusable(scope, profile, role);
    }

    private Reply fromCache(Request request, Reply reply, Budget budget, LlmCallObservation.Context observed) {
        record(request, reply.promptTokens(), reply.completionTokens(), 0, true, "ok", null, observed);
        budget.spend(reply.promptTokens(), reply.completionTokens());
        return new Reply(reply.text(), reply.toolCalls(), reply.promptTokens(), reply.completionTokens(), true);
    }

    /** A reply arrived: count it, refuse it if it was cut at the output limit, cache it. */
    private Reply received(
            Request request,
            ChatResponse response,
            long latency,
            Budget budget,
            String cacheKey,
            LlmCallObservation.Context observed) {
        ModelProfile profile = request.profile();
        Reply reply;
        try {
            reply = reply(response);
        } catch (LlmException empty) {
            record(request, 0, 0, latency, false, "error", empty.getMessage(), observed);
            throw empty;
        }
        budget.spend(reply.promptTokens(), reply.completionTokens());
        budget.tookMillis(latency);
        endpoint.observed(profile, true, null);
        if (cutAtLimit(response)) {
            String setting = profile.name().equals(ModelProfiles.DEFAULT)
                    ? "lorekeeper.llm.max-output-tokens"
                    : "lorekeeper.llm.profiles." + profile.name() + ".max-output-tokens";
            String reason = "the reply to " + request.template() + " was cut at the output limit of "
                    + profile.maxOutputTokens()
                    + " tokens (finish_reason length); raise " + setting + " for the "
                    + request.role().key() + " role";
            record(
                    request,
                    reply.promptTokens(),
                    reply.completionTokens(),
                    latency,
                    false,
                    "truncated",
                    reason,
                    observed);
            throw new TruncatedReplyException(reason, setting, reply.text());
        }
        record(request, reply.promptTokens(), reply.completionTokens(), latency, false, "ok", null, observed);
        if (cacheKey != null) {
            cache.put(
                    cacheKey,
                    request.scope().tenantId(),
                    new ResponseCache.Entry(
                            json.writeValueAsString(reply), reply.promptTokens(), reply.completionTokens()));
        }
        return reply;
    }

    /**
     * How long to wait before trying a failed call again; throws when it should not be tried again
     * (a client error, a rate limit longer than we wait, the last attempt, no wall time left).
     */
    private Duration retryWait(
            Request request,
            Exception e,
            int attempt,
            long latency,
            Budget budget,
            LlmCallObservation.Context observed) {
        ModelProfile profile = request.profile();
        RetryPolicy.Failure failure = RetryPolicy.classify(e);
        String reason = redact(failure.reason(), profile);
        // a server that answered with a client error (a bad request, a refused key, a rate limit) is
        // reachable; connection failures, timeouts and 5xx say the endpoint is down
        endpoint.observed(profile, !failure.endpointDown(), reason);
        if (!failure.retryable()) {
            record(request, 0, 0, latency, false, "error", reason, observed);
            throw new LlmException("the " + profile.name() + " model call failed: " + reason, redacted(e, profile));
        }
        Duration wait = retry.backoff(attempt, failure.retryAfter());
        if (failure.retryAfter().isPresent() && failure.retryAfter().get().compareTo(retry.maxWait()) > 0) {
            record(request, 0, 0, latency, false, "rate_limited", reason, observed);
            throw new RateLimitedException(profile.name(), failure.retryAfter().get());
        }
        if (attempt >= retry.maxAttempts()) {
            record(request, 0, 0, latency, false, "error", reason, observed);
            throw new LlmException(
                    "the " + profile.name() + " model endpoint failed " + attempt + " times; last: " + reason,
                    redacted(e, profile));
        }
        if (wait.compareTo(budget.remaining()) > 0) {
            record(request, 0, 0, latency, false, "error", reason, observed);
            throw new BudgetExhaustedException("wall time (the endpoint asked to wait " + wait.toSeconds() + " s)");
        }
        record(request, 0, 0, latency, false, "retry", reason, observed);
        log.info(
                "Model call to {} failed ({}); attempt {} of {} in {} ms",
                profile.name(),
                reason,
                attempt + 1,
                retry.maxAttempts(),
                wait.toMillis());
        return wait;
    }

    private static long millisSince(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }

    private OpenAiChatOptions options(Request request, boolean stream) {
        ModelProfile profile = request.profile();
        OpenAiChatOptions.Builder options = OpenAiChatOptions.builder()
                .model(profile.model())
                // Per-call options replace the client's, so the profile's timeout must be repeated here.
                .timeout(profile.timeout());
        if (profile.reasoningModel()) {
            // Reasoning models reject max_tokens and any temperature but the default.
            options.maxCompletionTokens(profile.maxOutputTokens());
        } else {
            options.temperature(profile.temperature()).maxTokens(profile.maxOutputTokens());
        }
        if (request.jsonSchema() != null) {
            options.responseFormat(OpenAiChatModel.ResponseFormat.builder()
                    .type(OpenAiChatModel.ResponseFormat.Type.JSON_SCHEMA)
                    .jsonSchema(request.jsonSchema())
                    .build());
        }
        if (request.tools() != null && !request.tools().isEmpty()) {
            options.toolCallbacks(request.tools()); // Spring AI 2 models return tool calls; the loop runs in LlmSession
        }
        if (stream) {
            options.streamUsage(true); // the usage comes in the stream's last chunk, to count the call as a plain one
        }
        return options.build();
    }

    /** The model stopped because it hit max_tokens: its reply is incomplete, and a repair call would be cut the same way. */
    private static boolean cutAtLimit(ChatResponse response) {
        var metadata = response.getResult().getMetadata();
        String reason = metadata == null ? null : metadata.getFinishReason();
        return reason != null && reason.equalsIgnoreCase("length");
    }

    private static Reply reply(ChatResponse response) {
        if (response == null
                || response.getResult() == null
                || response.getResult().getOutput() == null) {
            throw new LlmException("the model returned no choices");
        }
        AssistantMessage output = response.getResult().getOutput();
        List<Reply.ToolRequest> tools = new ArrayList<>();
        for (AssistantMessage.ToolCall call : output.getToolCalls()) {
            tools.add(new Reply.ToolRequest(call.id(), call.name(), call.arguments()));
        }
        Usage usage =
                response.getMetadata() == null ? null : response.getMetadata().getUsage();
        long prompt = usage == null || usage.getPromptTokens() == null ? 0 : usage.getPromptTokens();
        long completion = usage == null || usage.getCompletionTokens() == null ? 0 : usage.getCompletionTokens();
        return new Reply(output.getText(), tools, prompt, completion, false);
    }

    /** Everything that determines the reply, in a stable textual form. */
    private String canonical(Request request) {
        // The tenant is part of the key: a cache hit must never reveal what another tenant asked.
        StringBuilder s = new StringBuilder()
                .append(request.scope().tenantId())
                .append('\n')
                .append(request.profile().baseUrl())
                .append('\n')
                .append(request.profile().model())
                .append('\n')
                .append(request.profile().temperature())
                .append('|')
                .append(request.profile().maxOutputTokens())
                .append('\n')
                .append(request.jsonSchema())
                .append('\n');
        if (request.tools() != null) {
            for (ToolCallback tool : request.tools()) {
                toolLine(
                        s,
                        "tool:",
                        tool.getToolDefinition().name(),
                        tool.getToolDefinition().inputSchema());
            }
        }
        for (Message m : request.messages()) {
            s.append(m.getMessageType()).append(':').append(m.getText()).append('\n');
            if (m instanceof AssistantMessage a) {
                a.getToolCalls().forEach(c -> toolLine(s, "call:", c.name(), c.arguments()));
            }
            if (m instanceof ToolResponseMessage t) {
                t.getResponses().forEach(r -> toolLine(s, "result:", r.name(), r.responseData()));
            }
        }
        return s.toString();
    }

    /** A tool's definition, a call of it or its result, as one line of the canonical request. */
    private static void toolLine(StringBuilder s, String kind, String tool, String content) {
        s.append(kind).append(tool).append(content).append('\n');
    }

    /** A row of the call log, the same numbers counted in the metrics, and the outcome of the call's observation. */
    private void record(
            Request request,
            long prompt,
            long completion,
            long latency,
            boolean hit,
            String outcome,
            String error,
            LlmCallObservation.Context observed) {
        CallRecord call = new CallRecord(
                request.scope(),
                request.role(),
                request.profile().name(),
                request.profile().model(),
                request.template(),
                prompt,
                completion,
                latency,
                hit,
                outcome,
                error);
        calls.record(call);
        metrics.recorded(call);
        if (!"retry".equals(outcome)) {
            observed.finished(hit ? "cached" : outcome, prompt, completion);
        }
    }

    private static String redact(String text, ModelProfile profile) {
        return profile.apiKey() == null || profile.apiKey().length() < 4
                ? text
                : text.replace(profile.apiKey(), "****");
    }

    /**
     * The failure to chain as a cause: the original, unless a message anywhere in its chain contains
     * the key (an endpoint or proxy echoing it), in which case a copy with redacted messages and the
     * original stack traces, so that logging the exception cannot leak it.
     */
    private static Throwable redacted(Throwable error, ModelProfile profile) {
        String key = profile.apiKey();
        if (key == null || key.length() < 4) {
            return error;
        }
        boolean leaks = false;
        for (Throwable t = error; t != null && !leaks; t = t.getCause() == t ? null : t.getCause()) {
            leaks = t.getMessage() != null && t.getMessage().contains(key);
        }
        return leaks ? copyRedacted(error, key, 0) : error;
    }

    private static RuntimeException copyRedacted(Throwable t, String key, int depth) {
        Throwable cause = t.getCause() == null || t.getCause() == t || depth > 20 ? null : t.getCause();
        String message = t.getMessage() == null ? "" : ": " + t.getMessage().replace(key, "****");
        RuntimeException copy = new RuntimeException(
                t.getClass().getName() + message, cause == null ? null : copyRedacted(cause, key, depth + 1));
        copy.setStackTrace(t.getStackTrace());
        return copy;
    }

    private static void sleep(Duration wait) {
        try {
            Thread.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LlmException("interrupted while backing off", e);
        }
    }
}
