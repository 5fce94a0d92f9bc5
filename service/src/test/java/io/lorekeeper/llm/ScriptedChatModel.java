package io.lorekeeper.llm;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;

import io.lorekeeper.text.TokenCounter;

/**
 * A scripted {@link ChatModel} for tests of LLM-backed logic. Calls are routed by the prompt
 * template named on the first line of the system message ({@code [task: rag/answer]}); each
 * template has a queue of one-shot replies and an optional standing reply. Every call is recorded,
 * and replies can be failures or delayed.
 *
 * <pre>
 * model.on("rag/answer").reply("{\"answer\": \"Magwitch\", ...}");
 * model.on("gam/plan").once(json1).once(json2);
 * model.on("rag/answer").failOnce(new RuntimeException("boom"));
 * </pre>
 */
public class ScriptedChatModel implements ChatModel {

    private static final Pattern TASK = Pattern.compile("^\\[task: ([^\\]#]+)(#[a-z]+)?]");

    /** One recorded call. {@code template} includes a {@code #repair} or {@code #final} suffix when the gateway added one. */
    public record Call(String template, List<Message> messages, ChatOptions options) {
        public String system() {
            return text(MessageType.SYSTEM);
        }

        /** The last user message (the repair request, for a repair call). */
        public String user() {
            return text(MessageType.USER);
        }

        private String text(MessageType type) {
            String found = null;
            for (Message m : messages) {
                if (m.getMessageType() == type) {
                    found = m.getText();
                }
            }
            return found;
        }
    }

    /** The usage one reply reported, as a provider would bill it. */
    public record Reported(String template, long promptTokens, long completionTokens) {}

    private final Map<String, Script> scripts = new ConcurrentHashMap<>();
    private final Map<String, Script> defaults = new ConcurrentHashMap<>();
    private volatile ChatModel fallback;
    private final List<Call> calls = Collections.synchronizedList(new ArrayList<>());
    private final List<Reported> reported = Collections.synchronizedList(new ArrayList<>());

    public Script on(String template) {
        return scripts.computeIfAbsent(template, t -> new Script());
    }

    /**
     * The script used for {@code template} while no test scripted it with {@link #on}; kept across
     * {@link #reset()}. For calls that happen in every test without being its subject, such as the
     * memorizer's ingestion stages running for any document a test ingests.
     */
    public Script byDefault(String template) {
        return defaults.computeIfAbsent(template, t -> new Script());
    }

    /**
     * Answers every template no test scripted (and that has no default) with {@code model}, until
     * {@link #reset()}: for a test about what surrounds whole strategy runs (metrics, traces), where
     * the replies only need to be usable.
     */
    public void otherwise(ChatModel model) {
        fallback = model;
    }

    /** The simulated model ({@link SimulatedChatModels}): usable replies to every strategy's templates. */
    public static ChatModel simulated() {
        return new SimulatedChatModels(java.time.Duration.ZERO).forProfile(null);
    }

    public List<Call> calls() {
        return List.copyOf(calls);
    }

    public List<Call> calls(String template) {
        return calls().stream().filter(c -> c.template().equals(template)).toList();
    }

    /** The usage of every reply served for {@code template} (a failure reports none), in order. */
    public List<Reported> reported(String template) {
        return List.copyOf(reported).stream()
                .filter(r -> r.template().equals(template))
                .toList();
    }

    public void reset() {
        fallback = null;
        scripts.clear();
        calls.clear();
        reported.clear();
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        List<Message> messages = prompt.getInstructions();
        String system = messages.stream()
                .filter(m -> m.getMessageType() == MessageType.SYSTEM)
                .map(Message::getText)
                .findFirst()
                .orElse("");
        Matcher task = TASK.matcher(system);
        String template = task.find() ? task.group(1) : "(none)";
        String suffix = repairOrFinal(messages);
        Call call = new Call(template + suffix, List.copyOf(messages), prompt.getOptions());
        calls.add(call);
        Script script = scripts.getOrDefault(template, defaults.get(template));
        ChatModel otherwise = fallback;
        if (script == null && otherwise == null) {
            throw new IllegalStateException("no script for prompt template '" + template + "'");
        }
        ChatResponse response =
                script == null ? otherwise.call(prompt) : script.next().apply(call);
        var usage = response.getMetadata().getUsage();
        reported.add(new Reported(call.template(), usage.getPromptTokens(), usage.getCompletionTokens()));
        return response;
    }

    /** The gateway marks repair and final-answer calls only by their last user message. */
    private static String repairOrFinal(List<Message> messages) {
        Message last = messages.getLast();
        if (last.getMessageType() == MessageType.USER && last.getText().startsWith("That reply cannot be used")) {
            return "#repair";
        }
        if (last.getMessageType() == MessageType.USER && last.getText().startsWith("No more tool calls are possible")) {
            return "#final";
        }
        return "";
    }

    /** Replies for one template: one-shot replies first, in order, then the standing reply. */
    public static final class Script {
        private final Deque<Function<Call, ChatResponse>> once = new ArrayDeque<>();
        private volatile Function<Call, ChatResponse> standing;
        private volatile Duration delay = Duration.ZERO;
        private final AtomicInteger served = new AtomicInteger();

        /** Every call not served by a one-shot reply gets this text. */
        public Script reply(String text) {
            standing = call -> response(text, List.of(), call);
            return this;
        }

        /** Computes the reply from the call (e.g. echoing a passage the prompt contains). */
        public Script reply(Function<Call, String> text) {
            standing = call -> response(text.apply(call), List.of(), call);
            return this;
        }

        public Script once(String text) {
            synchronized (once) {
                once.add(call -> response(text, List.of(), call));
            }
            return this;
        }

        /**
         * A one-shot reply cut at the output limit ({@code finish_reason: length}) after {@code partialText},
         * as a model that ran out of output tokens returns it. The gateway asks once more with a larger
         * limit where the context window has room: script a second cut to make the step fail.
         */
        public Script cutOnce(String partialText) {
            synchronized (once) {
                once.add(call -> cut(response(partialText, List.of(), call)));
            }
            return this;
        }

        private static ChatResponse cut(ChatResponse whole) {
            return new ChatResponse(
                    List.of(new Generation(
                            whole.getResult().getOutput(),
                            ChatGenerationMetadata.builder()
                                    .finishReason("length")
                                    .build())),
                    whole.getMetadata());
        }

        /** A one-shot reply asking to call tools: pairs of (tool name, JSON arguments). */
        public Script onceCallTools(String... nameAndArguments) {
            List<AssistantMessage.ToolCall> toolCalls = new ArrayList<>();
            for (int i = 0; i < nameAndArguments.length; i += 2) {
                toolCalls.add(new AssistantMessage.ToolCall(
                        "call_" + (i / 2) + "_" + nameAndArguments[i],
                        "function",
                        nameAndArguments[i],
                        nameAndArguments[i + 1]));
            }
            synchronized (once) {
                once.add(call -> response("", toolCalls, call));
            }
            return this;
        }

        /** Every call not served by a one-shot reply fails with this error. */
        public Script fail(RuntimeException error) {
            standing = call -> {
                throw error;
            };
            return this;
        }

        public Script failOnce(RuntimeException error) {
            synchronized (once) {
                once.add(call -> {
                    throw error;
                });
            }
            return this;
        }

        public Script delay(Duration latency) {
            this.delay = latency;
            return this;
        }

        public int served() {
            return served.get();
        }

        Function<Call, ChatResponse> next() {
            served.incrementAndGet();
            if (!delay.isZero()) {
                try {
                    Thread.sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            synchronized (once) {
                if (!once.isEmpty()) {
                    return once.poll();
                }
            }
            if (standing == null) {
                throw new IllegalStateException("the script ran out of replies");
            }
            return standing;
        }

        private static ChatResponse response(String text, List<AssistantMessage.ToolCall> toolCalls, Call call) {
            // Real token counts (cl100k), so that usage figures measured with the double mean something.
            int prompt = call.messages().stream()
                    .mapToInt(m -> TokenCounter.count(String.valueOf(m.getText())) + 4)
                    .sum();
            int completion = TokenCounter.count(text);
            AssistantMessage message = AssistantMessage.builder()
                    .content(text)
                    .toolCalls(toolCalls)
                    .build();
            return new ChatResponse(
                    List.of(new Generation(message)),
                    ChatResponseMetadata.builder()
                            .usage(new DefaultUsage(prompt, completion))
                            .build());
        }
    }
}
