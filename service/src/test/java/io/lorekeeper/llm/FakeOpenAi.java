package io.lorekeeper.llm;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.client.ScenarioMappingBuilder;
import com.github.tomakehurst.wiremock.extension.Parameters;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;

import io.lorekeeper.support.TestDatabase;
import io.lorekeeper.support.TestDatabaseInitializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A WireMock server that speaks the OpenAI chat-completions wire format ({@code POST
 * /v1/chat/completions}), started once per test JVM. Tests stub what the "model" answers (plain
 * text, JSON, tool calls, 429 with {@code Retry-After}, 5xx, slow or malformed replies, always with a
 * realistic {@code usage} block) and inspect what the gateway sent.
 *
 * <pre>
 * fake.reply("pong");
 * fake.sequence(FakeOpenAi.tooManyRequests(1), FakeOpenAi.tooManyRequests(1), FakeOpenAi.completion("ok"));
 * fake.requests().getFirst().authorization();   // "Bearer sk-test-secret-1234"
 * </pre>
 *
 * The {@link Initializer} points the application at it; see {@link FakeOpenAiTest}.
 */
public final class FakeOpenAi {

    public static final String API_KEY = "sk-test-secret-1234";
    public static final String MODEL = "gpt-4o-mini";
    public static final String PATH = "/v1/chat/completions";
    /** Prompt and completion tokens of a reply built without explicit usage. */
    public static final int DEFAULT_PROMPT_TOKENS = 57;

    public static final int DEFAULT_COMPLETION_TOKENS = 11;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final AtomicInteger IDS = new AtomicInteger();
    private static FakeOpenAi instance;

    private final WireMockServer server;
    private final AtomicInteger scenarios = new AtomicInteger();

    private FakeOpenAi(WireMockServer server) {
        this.server = server;
    }

    /** The one server of this JVM, started on first use on a free port. */
    public static synchronized FakeOpenAi get() {
        if (instance == null) {
            WireMockServer server = new WireMockServer(options()
                    .dynamicPort()
                    .bindAddress("127.0.0.1")
                    .containerThreads(64)
                    .extensions(new Computed(), new StreamsWhenAsked())
                    .jettyStopTimeout(100L));
            server.start();
            Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "fake-openai-stop"));
            instance = new FakeOpenAi(server);
        }
        return instance;
    }

    /**
     * A second server on a given port, for tests of an endpoint that comes up late: the service was
     * configured with this port while nothing listened on it. Stop it when done.
     */
    public static FakeOpenAi startOn(int port) {
        WireMockServer server = new WireMockServer(options()
                .port(port)
                .bindAddress("127.0.0.1")
                .extensions(new Computed(), new StreamsWhenAsked())
                .jettyStopTimeout(100L));
        server.start();
        return new FakeOpenAi(server);
    }

    public void stop() {
        server.stop();
    }

    /** A port nothing listens on: bound once to learn a free number, then released. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What {@code lorekeeper.llm.base-url} must be: the SDK appends {@code /chat/completions}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.port() + "/v1";
    }

    /** Forgets every stub, scenario and recorded request. */
    public void reset() {
        server.resetAll();
        Computed.REPLIES.clear();
    }

    // ---------------------------------------------------------------- stubbing

    /** Every request gets this reply. */
    public void always(Response response) {
        server.stubFor(chat().willReturn(response.toWireMock()));
    }

    /** Every request gets a plain assistant reply. */
    public void reply(String content) {
        always(completion(content));
    }

    /** Every request gets {@code json} serialised as the assistant's content (as a JSON-mode model answers). */
    public void replyJson(Object json) {
        always(completion(json instanceof String s ? s : JSON.writeValueAsString(json)));
    }

    /** Every request gets a reply asking to call one tool. */
    public void replyToolCall(String name, String argumentsJson) {
        always(toolCall("call_" + IDS.incrementAndGet(), name, argumentsJson));
    }

    /** Every request is refused with 429 and {@code Retry-After: seconds}. */
    public void rateLimited(int retryAfterSeconds) {
        always(tooManyRequests(retryAfterSeconds));
    }

    /** {@code times} requests get 429 with {@code Retry-After: seconds}; every later one gets {@code content}. */
    public void rateLimitedThen(int times, int retryAfterSeconds, String content) {
        List<Response> responses = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            responses.add(tooManyRequests(retryAfterSeconds));
        }
        responses.add(completion(content));
        sequence(responses.toArray(Response[]::new));
    }

    /**
     * Requests rendered from one prompt template (its {@code [task: name]} line) get this reply,
     * ahead of any catch-all stub.
     */
    public void onTask(String template, Response response) {
        server.stubFor(chat().atPriority(1)
                .withRequestBody(containing("[task: " + template + "]"))
                .willReturn(response.toWireMock()));
    }

    /**
     * Requests rendered from one prompt template get the reply {@code reply} computes from the
     * request (a stand-in model that reads its prompt), ahead of any catch-all stub. The function
     * runs on the server's threads, several at a time when the service calls concurrently.
     */
    public void onTask(String template, Function<Request, Response> reply) {
        String key = template + "#" + scenarios.incrementAndGet();
        Computed.REPLIES.put(key, reply);
        server.stubFor(chat().atPriority(1)
                .withRequestBody(containing("[task: " + template + "]"))
                .willReturn(aResponse().withTransformers(Computed.NAME).withTransformerParameter(Computed.KEY, key)));
    }

    /**
     * Requests that ask to stream are refused with {@code status} (a server that rejects
     * {@code stream_options}, say), ahead of every other stub; requests asked whole are answered as stubbed.
     */
    public void refusesToStream(int status) {
        server.stubFor(chat().atPriority(0)
                .withRequestBody(containing("\"stream\":true"))
                .willReturn(error(status, "Unrecognized request argument supplied: stream_options", null)
                        .toWireMock()));
    }

    /** Every connection is reset before a reply: the endpoint is as good as down. */
    public void down() {
        server.stubFor(chat().willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
    }

    /** Every request fails with 500. */
    public void serverError() {
        always(error(500, "The server had an error while processing your request. Sorry about that!", "server_error"));
    }

    /** Every request is answered with {@code content}, after {@code delay} (longer than the client timeout, say). */
    public void delayed(Duration delay, String content) {
        always(completion(content).delayedBy(delay));
    }

    /** Every request gets 200 with a body that is not JSON. */
    public void malformed() {
        always(malformedBody());
    }

    /**
     * The first request gets the first response, the second the second, and so on; the last one
     * answers every later request too (a WireMock scenario).
     */
    public void sequence(Response... responses) {
        if (responses.length == 0) {
            throw new IllegalArgumentException("no responses");
        }
        String scenario = "sequence-" + scenarios.incrementAndGet();
        for (int i = 0; i < responses.length; i++) {
            String state = i == 0 ? Scenario.STARTED : "step-" + i;
            ScenarioMappingBuilder mapping =
                    chat().inScenario(scenario).whenScenarioStateIs(state).willReturn(responses[i].toWireMock());
            if (i + 1 < responses.length) {
                mapping.willSetStateTo("step-" + (i + 1));
            }
            server.stubFor(mapping);
        }
    }

    private static MappingBuilder chat() {
        return post(urlEqualTo(PATH));
    }

    /** The WireMock extension behind {@link #onTask(String, Function)}: it calls the function a stub names. */
    private static final class Computed implements ResponseDefinitionTransformerV2 {

        static final String NAME = "fake-openai-computed";
        static final String KEY = "reply";
        static final Map<String, Function<Request, Response>> REPLIES = new ConcurrentHashMap<>();

        @Override
        public ResponseDefinition transform(ServeEvent event) {
            Parameters parameters = event.getTransformerParameters();
            Function<Request, Response> reply = REPLIES.get(parameters.getString(KEY));
            if (reply == null) {
                return error(500, "no computed reply for " + parameters.getString(KEY), "server_error")
                        .toWireMock()
                        .build();
            }
            LoggedRequest r = event.getRequest();
            Request request = new Request(
                    r.getHeader("Authorization"), r.getHeader("Content-Type"), JSON.readTree(r.getBodyAsString()));
            return reply.apply(request).toWireMock().build();
        }

        @Override
        public boolean applyGlobally() {
            return false;
        }

        @Override
        public String getName() {
            return NAME;
        }
    }

    /**
     * How a reply answers a request that asks to stream ({@code "stream": true}): by default as OpenAI
     * does, in {@code chat.completion.chunk} frames ({@code data: ...}, the usage in the last chunk,
     * then {@code data: [DONE]}). A response may say otherwise through this header, which the fake
     * removes before it answers: {@code plain} (the whole completion as JSON, as an endpoint that
     * cannot stream answers), {@code cut} (the first half of the frames, then the end of the body
     * without a finish reason: a stream that breaks off) or {@code dribble:<ms>} (the frames spread over
     * that many milliseconds).
     */
    static final String STREAM_HEADER = "X-Fake-Stream";

    /** The WireMock extension that turns a completion into a stream of chunks when the request asks for one. */
    private static final class StreamsWhenAsked
            implements com.github.tomakehurst.wiremock.extension.ResponseTransformerV2 {

        @Override
        public com.github.tomakehurst.wiremock.http.Response transform(
                com.github.tomakehurst.wiremock.http.Response response, ServeEvent event) {
            com.github.tomakehurst.wiremock.http.HttpHeaders headers = response.getHeaders();
            String mode = headers.getHeader(STREAM_HEADER).isPresent()
                    ? headers.getHeader(STREAM_HEADER).firstValue()
                    : "";
            List<com.github.tomakehurst.wiremock.http.HttpHeader> kept = headers.all().stream()
                    .filter(h -> !h.keyEquals(STREAM_HEADER))
                    .toList();
            com.github.tomakehurst.wiremock.http.Response cleaned =
                    com.github.tomakehurst.wiremock.http.Response.Builder.like(response)
                            .but()
                            .headers(new com.github.tomakehurst.wiremock.http.HttpHeaders(kept))
                            .build();
            if (response.getStatus() != 200 || mode.equals("plain") || !asksToStream(event.getRequest())) {
                return cleaned;
            }
            JsonNode completion;
            try {
                completion = JSON.readTree(response.getBodyAsString());
            } catch (RuntimeException notJson) {
                return cleaned;
            }
            if (!"chat.completion".equals(completion.path("object").asString(null))) {
                return cleaned;
            }
            List<String> frames = frames(completion, mode.equals("cut"));
            var streamed = com.github.tomakehurst.wiremock.http.Response.Builder.like(response)
                    .but()
                    .headers(new com.github.tomakehurst.wiremock.http.HttpHeaders(
                            new com.github.tomakehurst.wiremock.http.HttpHeader("Content-Type", "text/event-stream"),
                            new com.github.tomakehurst.wiremock.http.HttpHeader("Cache-Control", "no-cache")))
                    .body(String.join("", frames));
            if (mode.startsWith("dribble:")) {
                streamed.chunkedDribbleDelay(new com.github.tomakehurst.wiremock.http.ChunkedDribbleDelay(
                        frames.size(), Integer.parseInt(mode.substring("dribble:".length()))));
            }
            return streamed.build();
        }

        private static boolean asksToStream(LoggedRequest request) {
            try {
                return JSON.readTree(request.getBodyAsString()).path("stream").asBoolean(false);
            } catch (RuntimeException notJson) {
                return false;
            }
        }

        @Override
        public boolean applyGlobally() {
            return true;
        }

        @Override
        public String getName() {
            return "fake-openai-streams";
        }
    }

    /** The words of {@code content}, two at a time, each piece with the whitespace that follows it. */
    public static List<String> pieces(String content) {
        List<String> words = new ArrayList<>();
        java.util.regex.Matcher word =
                java.util.regex.Pattern.compile("\\S+\\s*|\\s+").matcher(content);
        while (word.find()) {
            words.add(word.group());
        }
        List<String> pieces = new ArrayList<>();
        for (int i = 0; i < words.size(); i += 2) {
            pieces.add(String.join("", words.subList(i, Math.min(i + 2, words.size()))));
        }
        return pieces;
    }

    /** A completion as the frames of its stream; a cut stream keeps the first half of the text and nothing after. */
    private static List<String> frames(JsonNode completion, boolean cut) {
        JsonNode choice = completion.path("choices").path(0);
        String content = choice.path("message").path("content").asString("");
        List<String> pieces = pieces(content);
        List<String> frames = new ArrayList<>();
        frames.add(chunkFrame(completion, Map.of("role", "assistant", "content", ""), null, false));
        int shown = cut ? Math.max(1, pieces.size() / 2) : pieces.size();
        for (String piece : pieces.subList(0, Math.min(shown, pieces.size()))) {
            frames.add(chunkFrame(completion, Map.of("content", piece), null, false));
        }
        if (cut) {
            return frames;
        }
        frames.add(chunkFrame(completion, Map.of(), choice.path("finish_reason").asString("stop"), false));
        frames.add(chunkFrame(completion, null, null, true));
        frames.add("data: [DONE]\n\n");
        return frames;
    }

    private static String chunkFrame(JsonNode completion, Map<String, Object> delta, String finish, boolean usage) {
        Map<String, Object> chunk = new LinkedHashMap<>();
        chunk.put("id", completion.path("id").asString());
        chunk.put("object", "chat.completion.chunk");
        chunk.put("created", completion.path("created").asLong());
        chunk.put("model", completion.path("model").asString());
        chunk.put("system_fingerprint", "fp_fake0001");
        if (usage) {
            chunk.put("choices", List.of());
            chunk.put("usage", completion.path("usage"));
        } else {
            Map<String, Object> choice = new LinkedHashMap<>();
            choice.put("index", 0);
            choice.put("delta", delta);
            choice.put("logprobs", null);
            choice.put("finish_reason", finish);
            chunk.put("choices", List.of(choice));
            chunk.put("usage", null);
        }
        return "data: " + JSON.writeValueAsString(chunk) + "\n\n";
    }

    // ---------------------------------------------------------------- responses

    /** One HTTP response of the fake: status, headers, body and an optional delay. */
    public record Response(int status, Map<String, String> headers, String body, Duration delay) {

        public Response delayedBy(Duration by) {
            return new Response(status, headers, body, by);
        }

        /** This reply answers a streaming request with the whole completion, as an endpoint that cannot stream. */
        public Response notStreamed() {
            return withHeader(STREAM_HEADER, "plain");
        }

        /** This reply's stream breaks off halfway through its text, without a finish reason. */
        public Response streamCut() {
            return withHeader(STREAM_HEADER, "cut");
        }

        /** This reply's stream arrives over {@code over}, frame by frame. */
        public Response streamedOver(Duration over) {
            return withHeader(STREAM_HEADER, "dribble:" + over.toMillis());
        }

        public Response withHeader(String name, String value) {
            Map<String, String> more = new LinkedHashMap<>(headers);
            more.put(name, value);
            return new Response(status, more, body, delay);
        }

        ResponseDefinitionBuilder toWireMock() {
            ResponseDefinitionBuilder response = aResponse().withStatus(status).withBody(body);
            headers.forEach(response::withHeader);
            if (!delay.isZero()) {
                response.withFixedDelay((int) delay.toMillis());
            }
            return response;
        }
    }

    public static Response completion(String content) {
        return completion(content, DEFAULT_PROMPT_TOKENS, DEFAULT_COMPLETION_TOKENS);
    }

    /** A reply the model stopped because it reached its output limit ({@code finish_reason: length}). */
    public static Response truncated(String content) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("role", "assistant");
        message.put("content", content);
        message.put("refusal", null);
        message.put("annotations", List.of());
        return chatCompletion(message, "length", DEFAULT_PROMPT_TOKENS, DEFAULT_COMPLETION_TOKENS);
    }

    /** A {@code chat.completion} with one choice ({@code finish_reason: stop}) and the given usage. */
    public static Response completion(String content, int promptTokens, int completionTokens) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("role", "assistant");
        message.put("content", content);
        message.put("refusal", null);
        message.put("annotations", List.of());
        return chatCompletion(message, "stop", promptTokens, completionTokens);
    }

    /** A reply asking to call one tool ({@code finish_reason: tool_calls}, content null). */
    public static Response toolCall(String callId, String name, String argumentsJson) {
        Map<String, Object> function = new LinkedHashMap<>();
        function.put("name", name);
        function.put("arguments", argumentsJson);
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("id", callId);
        call.put("type", "function");
        call.put("function", function);
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("role", "assistant");
        message.put("content", null);
        message.put("tool_calls", List.of(call));
        message.put("refusal", null);
        message.put("annotations", List.of());
        return chatCompletion(message, "tool_calls", 143, 19);
    }

    /** 429 as OpenAI sends it when a rate limit is hit, with {@code Retry-After} in seconds. */
    public static Response tooManyRequests(int retryAfterSeconds) {
        return error(
                        429,
                        "Rate limit reached for " + MODEL + " in organization org-test on requests per min (RPM): "
                                + "Limit 3, Used 3, Requested 1. Please try again in " + retryAfterSeconds + "s.",
                        "rate_limit_exceeded")
                .withHeader("Retry-After", Integer.toString(retryAfterSeconds))
                .withHeader("x-ratelimit-limit-requests", "3")
                .withHeader("x-ratelimit-remaining-requests", "0");
    }

    /** An error in OpenAI's format: {@code {"error": {"message", "type", "param", "code"}}}. */
    public static Response error(int status, String message, String code) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("message", message);
        error.put("type", status == 429 ? "requests" : status >= 500 ? "server_error" : "invalid_request_error");
        error.put("param", null);
        error.put("code", code);
        return new Response(
                status,
                Map.of("Content-Type", "application/json"),
                JSON.writeValueAsString(Map.of("error", error)),
                Duration.ZERO);
    }

    /** 200 with a JSON content type and a body cut off in the middle. */
    public static Response malformedBody() {
        return new Response(
                200,
                Map.of("Content-Type", "application/json"),
                "{\"id\": \"chatcmpl-broken\", \"object\": \"chat.completion\", \"choices\": [{\"index\": 0, \"message\": {\"role\": \"assi",
                Duration.ZERO);
    }

    private static Response chatCompletion(
            Map<String, Object> message, String finishReason, int promptTokens, int completionTokens) {
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("index", 0);
        choice.put("message", message);
        choice.put("logprobs", null);
        choice.put("finish_reason", finishReason);
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("prompt_tokens", promptTokens);
        usage.put("completion_tokens", completionTokens);
        usage.put("total_tokens", promptTokens + completionTokens);
        usage.put("prompt_tokens_details", Map.of("cached_tokens", 0, "audio_tokens", 0));
        usage.put(
                "completion_tokens_details",
                Map.of(
                        "reasoning_tokens",
                        0,
                        "audio_tokens",
                        0,
                        "accepted_prediction_tokens",
                        0,
                        "rejected_prediction_tokens",
                        0));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", "chatcmpl-" + IDS.incrementAndGet());
        body.put("object", "chat.completion");
        body.put("created", 1_735_689_600L);
        body.put("model", MODEL + "-2024-07-18");
        body.put("choices", List.of(choice));
        body.put("usage", usage);
        body.put("service_tier", "default");
        body.put("system_fingerprint", "fp_fake0001");
        return new Response(
                200,
                Map.of("Content-Type", "application/json", "x-request-id", "req_" + IDS.get()),
                JSON.writeValueAsString(body),
                Duration.ZERO);
    }

    // ---------------------------------------------------------------- inspection

    /** The chat-completion requests received since the last reset, oldest first. */
    public List<Request> requests() {
        List<LoggedRequest> logged = new ArrayList<>(server.findAll(postRequestedFor(urlEqualTo(PATH))));
        logged.sort((a, b) -> a.getLoggedDate().compareTo(b.getLoggedDate()));
        return logged.stream()
                .map(r -> new Request(
                        r.getHeader("Authorization"), r.getHeader("Content-Type"), JSON.readTree(r.getBodyAsString())))
                .toList();
    }

    public int requestCount() {
        return server.findAll(postRequestedFor(urlEqualTo(PATH))).size();
    }

    /** Every request the server received at all, any path (a gateway calling a wrong URL shows up here). */
    public int allRequestCount() {
        return server.getAllServeEvents().size();
    }

    /** One request as the gateway sent it. */
    public record Request(String authorization, String contentType, JsonNode body) {

        public String model() {
            return body.path("model").asString(null);
        }

        public List<JsonNode> messages() {
            List<JsonNode> out = new ArrayList<>();
            body.path("messages").forEach(out::add);
            return out;
        }

        public List<JsonNode> messages(String role) {
            return messages().stream()
                    .filter(m -> role.equals(m.path("role").asString(null)))
                    .toList();
        }

        /** The text of the last message with {@code role}. */
        public String lastText(String role) {
            List<JsonNode> matching = messages(role);
            return matching.isEmpty() ? null : text(matching.getLast());
        }

        public JsonNode lastMessage() {
            return messages().getLast();
        }

        public boolean hasJsonSchema() {
            return "json_schema"
                    .equals(body.path("response_format").path("type").asString(null));
        }

        /** {@code response_format.json_schema} (name, strict, schema), if any. */
        public Optional<JsonNode> jsonSchema() {
            return hasJsonSchema() ? Optional.of(body.path("response_format").path("json_schema")) : Optional.empty();
        }

        public boolean hasTools() {
            return body.path("tools").isArray() && !body.path("tools").isEmpty();
        }

        public List<String> toolNames() {
            List<String> names = new ArrayList<>();
            body.path("tools")
                    .forEach(t -> names.add(t.path("function").path("name").asString(null)));
            return names;
        }

        public JsonNode tool(String name) {
            for (JsonNode t : body.path("tools")) {
                if (name.equals(t.path("function").path("name").asString(null))) {
                    return t;
                }
            }
            return null;
        }

        /** Message content as text, whether sent as a string or as an array of text parts. */
        public static String text(JsonNode message) {
            JsonNode content = message.path("content");
            if (content.isString()) {
                return content.asString();
            }
            StringBuilder s = new StringBuilder();
            content.forEach(part -> s.append(part.path("text").asString("")));
            return s.toString();
        }
    }

    // ---------------------------------------------------------------- wiring

    /** Resets the fake before each test, so stubs, scenarios and recorded requests never leak between tests. */
    public static class ResetBeforeEach implements BeforeEachCallback {

        /** Whether the service's start-up probe ({@code GET /models}, sent from a background thread) has arrived. */
        private static volatile boolean probed;

        @Override
        public void beforeEach(ExtensionContext context) {
            FakeOpenAi fake = get();
            if (!probed) {
                // the first test of a context starts while the probe may still be on its way: a reset before it
                // lands left it to be counted as that test's request
                long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                while (!fake.sawProbe() && System.nanoTime() < deadline) {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                probed = true;
            }
            fake.reset();
            // an endpoint found not to stream is remembered; a test's stand-in that did not stream is forgotten
            org.springframework.test.context.junit.jupiter.SpringExtension.getApplicationContext(context)
                    .getBean(ChatCaller.class)
                    .forgetPlainOnly();
        }
    }

    private boolean sawProbe() {
        return server.getAllServeEvents().stream()
                .anyMatch(e -> e.getRequest().getUrl().endsWith("/models"));
    }

    /**
     * Points the application at the fake: the default profile at WireMock with a test key and fast
     * retries; and at a database of its own beside the other contexts'. Named profiles for tests that need other behaviour:
     * <ul>
     * <li>{@code judge} → profile {@code dead}: a closed local port;</li>
     * <li>{@code researcher} → profile {@code impatient}: a 1-second timeout;</li>
     * <li>{@code memorizer} → profile {@code prompt-mode}: structured output described in the prompt;</li>
     * <li>{@code planner} → profile {@code warm}: temperature 0.7, so never cached.</li>
     * </ul>
     */
    public static class Initializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

        private static final int CLOSED_PORT = freePort();

        @Override
        public void initialize(ConfigurableApplicationContext context) {
            // A database of its own: contexts sharing one also share db-scheduler's task table, so a job queued by
            // a context without an LLM could run here against the fake (and spoil the request counts), or vice versa.
            TestDatabaseInitializer.apply(TestDatabase.sibling("fake_openai"), context);
            TestPropertyValues.of(
                            "lorekeeper.llm.base-url=" + get().baseUrl(),
                            "lorekeeper.llm.api-key=" + API_KEY,
                            "lorekeeper.llm.model=" + MODEL,
                            // generous: a first call on a busy machine can take seconds; tests of timeouts use
                            // "impatient"
                            "lorekeeper.llm.timeout=20s",
                            "lorekeeper.llm.retry.initial-backoff=50ms",
                            "lorekeeper.llm.profiles.dead.base-url=http://127.0.0.1:" + CLOSED_PORT + "/v1",
                            "lorekeeper.llm.profiles.impatient.timeout=1s",
                            "lorekeeper.llm.profiles.prompt-mode.structured-output=prompt",
                            "lorekeeper.llm.profiles.warm.temperature=0.7",
                            "lorekeeper.llm.roles.judge=dead",
                            "lorekeeper.llm.roles.researcher=impatient",
                            "lorekeeper.llm.roles.memorizer=prompt-mode",
                            "lorekeeper.llm.profiles.reasoner.reasoning-model=true",
                            "lorekeeper.llm.roles.planner=warm",
                            "lorekeeper.llm.roles.builder=reasoner",
                            // prices for the estimated-cost metric (LlmMetricsTest)
                            "lorekeeper.llm.prices.default.prompt-per-million=2",
                            "lorekeeper.llm.prices.default.completion-per-million=8",
                            // spans exported to a stand-in collector in this JVM, soon after they end (TracingTest)
                            "management.opentelemetry.tracing.export.otlp.endpoint="
                                    + io.lorekeeper.support.OtlpCollector.get().endpoint(),
                            "management.opentelemetry.tracing.export.schedule-delay=100ms")
                    .applyTo(context);
        }
    }
}
