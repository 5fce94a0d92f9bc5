package io.lorekeeper.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

import io.lorekeeper.llm.LlmSettings.StructuredOutputMode;

/**
 * The model, as one question or one ingestion stage sees it: every call is routed by role,
 * rendered from a named template, counted against this session's {@link Budget} and recorded
 * under its {@link CallScope}.
 */
public final class LlmSession {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LlmSession.class);

    private final CallScope scope;
    private final Budget budget;
    private final ModelProfiles profiles;
    private final PromptTemplates templates;
    private final ChatCaller caller;
    private final StructuredOutput output;
    private volatile Consumer<ReplyIssue> issues = LlmSession::log;
    private final List<CallUsage> usage;
    private final boolean answering;
    private final Drafts drafts;

    LlmSession(
            CallScope scope,
            Budget budget,
            ModelProfiles profiles,
            PromptTemplates templates,
            ChatCaller caller,
            StructuredOutput output) {
        this(
                scope,
                budget,
                profiles,
                templates,
                caller,
                output,
                false,
                java.util.Collections.synchronizedList(new ArrayList<>()),
                new Drafts());
    }

    private LlmSession(
            CallScope scope,
            Budget budget,
            ModelProfiles profiles,
            PromptTemplates templates,
            ChatCaller caller,
            StructuredOutput output,
            boolean answering,
            List<CallUsage> usage,
            Drafts drafts) {
        this.scope = scope;
        this.budget = budget;
        this.profiles = profiles;
        this.templates = templates;
        this.caller = caller;
        this.output = output;
        this.answering = answering;
        this.usage = usage;
        this.drafts = drafts;
    }

    /**
     * This session for the call that writes the answer: it may use the part of the budget kept for
     * the answer (the last call, the last stretch of the wall time), which research steps may not.
     * Same budget, call log and issue listener.
     */
    public LlmSession answering() {
        LlmSession derived = new LlmSession(scope, budget, profiles, templates, caller, output, true, usage, drafts);
        derived.issues = issue -> issues.accept(issue);
        return derived;
    }

    public Budget budget() {
        return budget;
    }

    /**
     * This session with every call sampling at {@code temperature}, whatever the role's profile
     * says, for methods whose agents need their own temperatures (MemCoT's judge at 0). Same budget
     * and call log; only temperature-0 replies are cached, as always.
     */
    public LlmSession atTemperature(double temperature) {
        if (temperature < 0 || temperature > 2 || Double.isNaN(temperature)) {
            throw new IllegalArgumentException("temperature must be within [0, 2], was " + temperature);
        }
        LlmSession derived = new LlmSession(
                scope,
                budget,
                profiles.atTemperature(temperature),
                templates,
                caller,
                output,
                answering,
                usage,
                drafts);
        derived.issues = issue -> issues.accept(issue); // whoever listens to this session hears the derived one too
        return derived;
    }

    /**
     * This session with the role's replies allowed at least {@code tokens}, for a step whose method asks
     * for a long reply (Chain of Agents' 8,000-token summary). Only the role's default limit is raised:
     * a profile that sets its own {@code max-output-tokens} keeps it ({@link LlmGateway#outputLimit}
     * says which applies). Same budget and call log.
     */
    public LlmSession withOutputLimit(Role role, int tokens) {
        LlmSession derived = new LlmSession(
                scope,
                budget,
                profiles.withOutputFloor(role, tokens),
                templates,
                caller,
                output,
                answering,
                usage,
                drafts);
        derived.issues = issue -> issues.accept(issue);
        return derived;
    }

    /**
     * Where this session reports what it had to leave out of imperfect replies (dropped items, plain
     * text accepted as an answer); a question sends them to its trace. By default they are logged.
     */
    public LlmSession reportIssuesTo(Consumer<ReplyIssue> listener) {
        this.issues = listener;
        return this;
    }

    /**
     * Where this session (and every session derived from it) sends the text of its {@link Role#ANSWERER}
     * calls as the model writes it: those calls then go through the streaming API where the endpoint
     * streams. Calls with tools are never streamed. After a stream is cut, this session's later calls
     * are made whole.
     */
    public LlmSession streamAnswersTo(AnswerStream listener) {
        drafts.listener = listener;
        return this;
    }

    /** What this session and those derived from it share about streamed answers. */
    private static final class Drafts {
        volatile AnswerStream listener;
        volatile boolean cut;
        final java.util.concurrent.atomic.AtomicInteger streams = new java.util.concurrent.atomic.AtomicInteger();
    }

    /** The pieces of a streamed call, turned into the answer's text and numbered drafts for the listener. */
    private ChatCaller.Pieces pieces(ChatCaller.Request request) {
        AnswerStream listener = drafts.listener;
        if (listener == null
                || drafts.cut
                || request.role() != Role.ANSWERER
                || (request.tools() != null && !request.tools().isEmpty())) {
            return null;
        }
        AnswerText answer = new AnswerText();
        return new ChatCaller.Pieces() {
            private int stream;

            @Override
            public void piece(String text) {
                String added = answer.feed(text);
                if (added.isEmpty()) {
                    return;
                }
                if (stream == 0) {
                    stream = drafts.streams.incrementAndGet();
                    tell(() -> listener.began(stream, request.template()));
                }
                tell(() -> listener.delta(stream, added));
            }

            @Override
            public void ended(boolean complete) {
                if (stream != 0) {
                    tell(() -> listener.ended(stream, complete));
                }
            }
        };
    }

    /** A listener that fails does not fail the model call: the answer still comes whole at the end. */
    private static void tell(Runnable news) {
        try {
            news.run();
        } catch (RuntimeException e) {
            LOG.warn("A listener to a streamed answer failed; the answer is not affected", e);
        }
    }

    /**
     * Something a reply got wrong that was worked around rather than failed on.
     *
     * @param kind   {@code dropped} (an invalid item left out), {@code plain-text} (prose accepted where JSON
     *               was asked) or {@code truncated} (a reply cut at the output limit: retried with a larger
     *               limit, or its complete part kept; the reason names the setting to raise)
     * @param path   where in the reply ({@code pages[2]}), or null
     * @param reason what was wrong
     */
    public record ReplyIssue(String template, String kind, String path, String reason) {}

    private static void log(ReplyIssue issue) {
        LOG.info("Model reply to {}: {} {} ({})", issue.template(), issue.kind(), issue.path(), issue.reason());
    }

    /** Free text from the template's prompt. */
    public String text(Role role, String template, Map<String, ?> variables) {
        ModelProfile profile = profiles.forRole(role);
        PromptTemplates.Rendered prompt = templates.render(template, variables);
        return call(request(role, profile, template, messages(prompt, null), null, null))
                .text();
    }

    /**
     * A reply bound to {@code type} and validated. In native mode the JSON schema travels in the
     * request; in prompt mode it is described in the system prompt. Invalid items of lists are
     * dropped and reported ({@link #reportIssuesTo}); a reply whose top level does not parse or
     * validate gets one repair call that shows the model its error.
     */
    public <T> T structured(Role role, String template, Map<String, ?> variables, Class<T> type) {
        return structured(role, template, variables, type, null);
    }

    /**
     * Like {@link #structured}, for a step whose plain-text reply is still an answer (a final
     * answer, say): when neither the reply nor its repair holds a JSON object, {@code fromPlainText}
     * turns the reply's prose into a {@code T}, and a {@code plain-text} issue is reported.
     */
    public <T> T structuredOrText(
            Role role, String template, Map<String, ?> variables, Class<T> type, Function<String, T> fromPlainText) {
        return structured(role, template, variables, type, fromPlainText);
    }

    private <T> T structured(
            Role role, String template, Map<String, ?> variables, Class<T> type, Function<String, T> fromPlainText) {
        ModelProfile profile = profiles.forRole(role);
        PromptTemplates.Rendered prompt = templates.render(template, variables);
        String schema = StructuredOutput.schemaOf(type);
        List<Message> messages =
                messages(prompt, profile.structuredOutput() == StructuredOutputMode.PROMPT ? schema : null);
        String nativeSchema = profile.structuredOutput() == StructuredOutputMode.NATIVE ? schema : null;
        String reply;
        try {
            reply = call(request(role, profile, template, messages, nativeSchema, null))
                    .text();
        } catch (TruncatedReplyException cut) {
            return completePartOf(template, cut, type);
        }
        return bindOrRepair(role, profile, template, messages, reply, type, schema, nativeSchema, fromPlainText);
    }

    /**
     * What can be kept of a reply that stayed cut at the output limit: the JSON up to the last complete
     * item, closed (a list of twenty facts cut in the twentieth keeps nineteen). Throws the cut when
     * nothing complete is left.
     */
    private <T> T completePartOf(String template, TruncatedReplyException cut, Class<T> type) {
        StructuredOutput.Parsed<T> parsed;
        try {
            parsed = output.readCut(cut.partial(), type);
        } catch (StructuredOutput.InvalidReply nothingComplete) {
            throw cut;
        }
        issues.accept(new ReplyIssue(
                template,
                "truncated",
                null,
                "kept the complete part of a reply cut at the output limit; raise " + cut.setting()));
        return keep(template, parsed);
    }

    /** Binds a reply to {@code type}; if it does not parse or validate, one repair call shows the model its error. */
    private <T> T bindOrRepair(
            Role role,
            ModelProfile profile,
            String template,
            List<Message> messages,
            String reply,
            Class<T> type,
            String schema,
            String nativeSchema,
            Function<String, T> fromPlainText) {
        try {
            return keep(template, output.read(reply, type));
        } catch (StructuredOutput.InvalidReply invalid) {
            List<Message> repair = new ArrayList<>(messages);
            repair.add(new AssistantMessage(reply == null ? "" : reply));
            repair.add(new UserMessage("That reply cannot be used: " + invalid.getMessage()
                    + ". Answer again with only one JSON object that matches this schema:\n" + schema));
            String repaired;
            try {
                repaired = call(request(role, profile, template + "#repair", repair, nativeSchema, null))
                        .text();
            } catch (TruncatedReplyException cut) {
                return completePartOf(template, cut, type);
            }
            try {
                return keep(template, output.read(repaired, type));
            } catch (StructuredOutput.InvalidReply stillInvalid) {
                if (fromPlainText != null) {
                    for (String candidate : new String[] {reply, repaired}) {
                        String prose = StructuredOutput.plainText(candidate);
                        if (!prose.isBlank() && !StructuredOutput.containsJson(candidate)) {
                            issues.accept(new ReplyIssue(
                                    template,
                                    "plain-text",
                                    null,
                                    "no JSON in the reply or its repair; its text was taken as the answer"));
                            return fromPlainText.apply(prose);
                        }
                    }
                }
                caller.unusable(scope, profile, role);
                throw new UnusableReplyException("the model's reply to " + template
                        + " did not match its schema after one repair: " + stillInvalid.getMessage());
            }
        }
    }

    private <T> T keep(String template, StructuredOutput.Parsed<T> parsed) {
        for (StructuredOutput.Dropped dropped : parsed.dropped()) {
            issues.accept(new ReplyIssue(template, "dropped", dropped.path(), dropped.reason()));
        }
        return parsed.value();
    }

    /**
     * A tool loop driven here, not inside the client, so the budget applies to every round: the
     * model may call tools for up to {@code maxRounds} rounds; its first reply without tool calls is
     * bound to {@code type} (with one repair call, as in {@link #structured}). When the rounds run out,
     * one last call without tools asks for the answer.
     */
    public <T> T withTools(
            Role role,
            String template,
            Map<String, ?> variables,
            List<LlmTool> tools,
            int maxRounds,
            Class<T> type,
            ToolObserver observer) {
        return withTools(role, template, variables, tools, maxRounds, type, observer, null);
    }

    /** {@link #withTools} whose final reply may be plain text, turned into a {@code T} as in {@link #structuredOrText}. */
    public <T> T withTools(
            Role role,
            String template,
            Map<String, ?> variables,
            List<LlmTool> tools,
            int maxRounds,
            Class<T> type,
            ToolObserver observer,
            Function<String, T> fromPlainText) {
        ModelProfile profile = profiles.forRole(role);
        PromptTemplates.Rendered prompt = templates.render(template, variables);
        String schema = StructuredOutput.schemaOf(type);
        List<Message> messages = messages(prompt, schema);
        Map<String, LlmTool> byName = tools.stream().collect(Collectors.toMap(LlmTool::name, Function.identity()));
        List<ToolCallback> callbacks = tools.stream().map(LlmSession::callback).toList();
        for (int round = 1; round <= maxRounds; round++) {
            Reply reply;
            try {
                reply = call(request(role, profile, template, messages, null, callbacks));
            } catch (TruncatedReplyException cut) {
                return completePartOf(template, cut, type);
            }
            if (!reply.wantsTools()) {
                return bindOrRepair(role, profile, template, messages, reply.text(), type, schema, null, fromPlainText);
            }
            List<AssistantMessage.ToolCall> calls = reply.toolCalls().stream()
                    .map(c -> new AssistantMessage.ToolCall(c.id(), "function", c.name(), c.arguments()))
                    .toList();
            messages.add(AssistantMessage.builder()
                    .content(reply.text() == null ? "" : reply.text())
                    .toolCalls(calls)
                    .build());
            List<ToolResponseMessage.ToolResponse> results = new ArrayList<>();
            for (Reply.ToolRequest call : reply.toolCalls()) {
                LlmTool tool = byName.get(call.name());
                String result;
                if (tool == null) {
                    result = "error: there is no tool named '" + call.name() + "'; tools are " + byName.keySet();
                } else {
                    try {
                        result = tool.call(call.arguments());
                    } catch (RuntimeException e) {
                        result = "error: " + e.getMessage();
                    }
                }
                observer.called(round, call.name(), call.arguments(), result);
                results.add(new ToolResponseMessage.ToolResponse(call.id(), call.name(), result));
            }
            messages.add(ToolResponseMessage.builder().responses(results).build());
        }
        messages.add(
                new UserMessage("No more tool calls are possible. Give your final answer now as one JSON object."));
        Reply last;
        try {
            last = call(request(role, profile, template + "#final", messages, null, null));
        } catch (TruncatedReplyException cut) {
            return completePartOf(template, cut, type);
        }
        return bindOrRepair(role, profile, template, messages, last.text(), type, schema, null, fromPlainText);
    }

    /** Sees every tool call of a loop, for the trace. */
    @FunctionalInterface
    public interface ToolObserver {
        void called(int round, String tool, String arguments, String result);

        ToolObserver NONE = (round, tool, arguments, result) -> {};
    }

    /**
     * One call this session made, with the usage recorded for it in the call log ({@code template}
     * carries a {@code #repair} or {@code #final} suffix for those calls).
     */
    public record CallUsage(Role role, String template, long promptTokens, long completionTokens) {}

    /** The calls this session made, in order: what a strategy reports about its own cost (MindGraph's compaction). */
    public List<CallUsage> calls() {
        synchronized (usage) {
            return List.copyOf(usage);
        }
    }

    /**
     * One call; a reply cut at the output limit is asked again once with twice the limit, where the
     * model's context window has room for the prompt and that much reply.
     */
    private Reply call(ChatCaller.Request request) {
        try {
            return callOnce(request);
        } catch (TruncatedReplyException cut) {
            int larger = largerLimit(request);
            issues.accept(new ReplyIssue(
                    request.template(),
                    "truncated",
                    null,
                    cut.getMessage()
                            + (larger > 0
                                    ? "; asked again with a limit of " + larger + " tokens"
                                    : "; the context window leaves no room to ask again with a larger limit")));
            if (larger <= 0) {
                throw cut;
            }
            return callOnce(new ChatCaller.Request(
                    request.scope(),
                    request.role(),
                    request.profile().withMaxOutputTokens(larger),
                    request.template(),
                    request.messages(),
                    request.jsonSchema(),
                    request.tools()));
        }
    }

    /** Twice the request's reply limit, or less where the context window ends; 0 when that is not a quarter more. */
    static int largerLimit(ChatCaller.Request request) {
        ModelProfile profile = request.profile();
        long prompt = request.messages().stream()
                        .mapToLong(m -> io.lorekeeper.text.TokenCounter.count(String.valueOf(m.getText())))
                        .sum()
                + (request.jsonSchema() == null ? 0 : io.lorekeeper.text.TokenCounter.count(request.jsonSchema()));
        long room = profile.contextWindow() - prompt - PROMPT_MARGIN;
        long larger = Math.min(2L * profile.maxOutputTokens(), room);
        return larger >= profile.maxOutputTokens() * 5L / 4 ? (int) larger : 0;
    }

    /** Tokens a prompt may take beyond what the tokenizer counts (chat markup, tool schemas, a different tokenizer). */
    private static final int PROMPT_MARGIN = 512;

    private Reply callOnce(ChatCaller.Request request) {
        Reply reply;
        try {
            reply = caller.call(request, budget, answering, pieces(request));
        } catch (StreamCutException cut) {
            drafts.cut = true; // the endpoint's streams break: what this session asks next is asked whole
            throw cut;
        }
        usage.add(new CallUsage(request.role(), request.template(), reply.promptTokens(), reply.completionTokens()));
        return reply;
    }

    private ChatCaller.Request request(
            Role role,
            ModelProfile profile,
            String template,
            List<Message> messages,
            String schema,
            List<ToolCallback> tools) {
        return new ChatCaller.Request(scope, role, profile, template, messages, schema, tools);
    }

    private static List<Message> messages(PromptTemplates.Rendered prompt, String schemaInPrompt) {
        String system = schemaInPrompt == null
                ? prompt.system()
                : prompt.system()
                        + "\n\nReply with only one JSON object that matches this JSON schema, and nothing else:\n"
                        + schemaInPrompt;
        List<Message> messages = new ArrayList<>();
        messages.add(new SystemMessage(system));
        messages.add(new UserMessage(prompt.user()));
        return messages;
    }

    private static ToolCallback callback(LlmTool tool) {
        ToolDefinition definition = ToolDefinition.builder()
                .name(tool.name())
                .description(tool.description())
                .inputSchema(tool.parametersSchema())
                .build();
        return new ToolCallback() {
            @Override
            public ToolDefinition getToolDefinition() {
                return definition;
            }

            @Override
            public String call(String arguments) {
                return tool.call(arguments);
            }
        };
    }
}
