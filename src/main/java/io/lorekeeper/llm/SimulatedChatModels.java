package io.lorekeeper.llm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Primary;
import org.springframework.stereotype.Component;

import io.lorekeeper.text.SentenceSplitter;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;

import tools.jackson.databind.json.JsonMapper;

/**
 * An opt-in, deterministic stand-in for an LLM, so that LLM strategies run offline: for overhead
 * benchmarks and for exercising the evaluation harness end to end. <strong>Its answers are not a
 * model's</strong>: every reply is computed from the prompt by a fixed rule (the first sentence of
 * the first passage, excerpt or page), so accuracy measured with it says nothing about a strategy's
 * quality; only calls, tokens and the service's own overhead are meaningful.
 *
 * <p>Enabled with {@code lorekeeper.llm.simulated.enabled=true} (plus any {@code lorekeeper.llm.base-url},
 * which is what marks the LLM as configured; it is never called). {@code lorekeeper.llm.simulated.latency}
 * (default 0) is slept before every reply. Usage is counted with the real tokenizer (cl100k).
 *
 * <ul>
 * <li>{@code rag/answer}: the first sentence of passage 1, cited; "not available" when there is none;</li>
 * <li>{@code gam/plan}: the request as one keyword and one vector query;</li>
 * <li>{@code gam/integrate}: the first two sentences of the first page, citing that page;</li>
 * <li>{@code gam/reflect}: enough;</li>
 * <li>{@code gam/answer}: the first sentence of excerpt 1, cited;</li>
 * <li>{@code gam/memo}, {@code gam/page-header}: the first sentence of the page;</li>
 * <li>{@code mindgraph/build}: no operations (an empty graph), so that ingestion completes.</li>
 * </ul>
 * Any other template fails the call (a strategy that needs it cannot be simulated yet).
 */
@Component
@Primary
@ConditionalOnProperty(name = "lorekeeper.llm.simulated.enabled", havingValue = "true")
class SimulatedChatModels implements ChatModelProvider {

    private final SimulatedChatModel model;

    SimulatedChatModels(@Value("${lorekeeper.llm.simulated.latency:0ms}") Duration latency) {
        this.model = new SimulatedChatModel(latency);
    }

    @Override
    public ChatModel forProfile(ModelProfile profile) {
        return model;
    }

    static final class SimulatedChatModel implements ChatModel {

        private static final Pattern TASK = Pattern.compile("^\\[task: ([^\\]#]+)]");
        private static final Pattern PASSAGE = Pattern.compile("<passage n=\"1\"[^>]*>\\n(.*?)\\n</passage>", Pattern.DOTALL);
        private static final Pattern EXCERPT = Pattern.compile("<excerpt n=\"1\"[^>]*>\\n(.*?)\\n</excerpt>", Pattern.DOTALL);
        private static final Pattern PAGE_REF = Pattern.compile("<page ref=\"D(\\d+)-P(\\d+)\">\\n(?:\\(context: [^\\n]*\\)\\n)?(.*?)\\n</page>",
                Pattern.DOTALL);
        private static final Pattern PAGE = Pattern.compile("<page>\\n(.*?)\\n</page>", Pattern.DOTALL);
        private static final Pattern REQUEST = Pattern.compile("<request>\\n(.*?)\\n</request>", Pattern.DOTALL);
        private static final JsonMapper JSON = JsonMapper.builder().build();
        static final String NOT_AVAILABLE = "The information is not available in the documents.";

        private final Duration latency;

        SimulatedChatModel(Duration latency) {
            this.latency = latency;
        }

        @Override
        public ChatResponse call(Prompt prompt) {
            List<Message> messages = prompt.getInstructions();
            String system = text(messages, MessageType.SYSTEM);
            String user = text(messages, MessageType.USER);
            Matcher task = TASK.matcher(system);
            String template = task.find() ? task.group(1) : "(none)";
            String reply = JSON.writeValueAsString(reply(template, system, user));
            if (!latency.isZero()) {
                try {
                    Thread.sleep(latency);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            int promptTokens = messages.stream().mapToInt(m -> TokenCounter.count(String.valueOf(m.getText())) + 4).sum();
            AssistantMessage message = AssistantMessage.builder().content(reply).build();
            return new ChatResponse(List.of(new Generation(message)), ChatResponseMetadata.builder()
                    .usage(new DefaultUsage(promptTokens, TokenCounter.count(reply))).build());
        }

        static Map<String, Object> reply(String template, String system, String user) {
            Map<String, Object> out = new LinkedHashMap<>();
            switch (template) {
                case "rag/answer" -> {
                    String first = firstSentences(group(PASSAGE, user, 1), 1);
                    boolean choices = user.contains("\nChoices:\n");
                    answer(out, first, "passage", choices);
                }
                case "gam/answer" -> {
                    String first = firstSentences(group(EXCERPT, user, 1), 1);
                    answer(out, first, "excerpt", user.contains("\nChoices:\n"));
                }
                case "gam/plan" -> {
                    String request = group(REQUEST, user, 1).strip();
                    out.put("informationNeeds", List.of(request));
                    out.put("keywordQueries", system.contains("- keywordQueries") ? List.of(request) : List.of());
                    out.put("vectorQueries", system.contains("- vectorQueries") ? List.of(request) : List.of());
                    out.put("pages", List.of());
                }
                case "gam/integrate" -> {
                    Matcher page = PAGE_REF.matcher(user);
                    if (page.find()) {
                        String summary = firstSentences(page.group(3), 2);
                        out.put("summary", summary);
                        out.put("facts", List.of(Map.of("fact", summary, "sources",
                                List.of(Map.of("doc", Integer.parseInt(page.group(1)), "page", Integer.parseInt(page.group(2)))))));
                    } else {
                        out.put("summary", "Nothing found yet.");
                        out.put("facts", List.of());
                    }
                }
                case "gam/reflect" -> {
                    out.put("enough", true);
                    out.put("missing", "");
                    out.put("followUps", List.of());
                }
                // MindGraph's ingestion stage (work in progress elsewhere): an empty edit list, so that
                // documents still ingest with the simulated model; the graph stays empty.
                case "mindgraph/build" -> out.put("operations", List.of());
                case "gam/memo" -> out.put("memo", orDefault(firstSentences(group(PAGE, user, 1), 1), "An empty page."));
                case "gam/page-header" -> out.put("header", orDefault(firstSentences(group(PAGE, user, 1), 1), "An empty page."));
                default -> throw new IllegalStateException("the simulated model has no rule for prompt template '" + template + "'");
            }
            return out;
        }

        private static void answer(Map<String, Object> out, String first, String sourceField, boolean choices) {
            if (first.isEmpty()) {
                out.put("answer", NOT_AVAILABLE);
                out.put("evidence", List.of());
                out.put("confidence", 0.0);
            } else {
                out.put("answer", first);
                out.put("evidence", List.of(Map.of(sourceField, 1, "quote", first)));
                out.put("confidence", 0.5);
            }
            out.put("choice", choices ? 0 : null);
        }

        private static String orDefault(String s, String fallback) {
            return s.isEmpty() ? fallback : s;
        }

        /** The first {@code n} sentences of a block, verbatim (so that quotes locate in the source). */
        static String firstSentences(String block, int n) {
            if (block == null || block.isBlank()) {
                return "";
            }
            List<Span> sentences = new ArrayList<>(SentenceSplitter.split(block));
            sentences.removeIf(s -> s.of(block).isBlank() || s.of(block).strip().startsWith("[Session"));
            if (sentences.isEmpty()) {
                return block.strip();
            }
            Span first = sentences.getFirst();
            Span last = sentences.get(Math.min(n, sentences.size()) - 1);
            return block.substring(first.start(), last.end()).strip();
        }

        private static String group(Pattern pattern, String text, int group) {
            Matcher m = pattern.matcher(text == null ? "" : text);
            return m.find() ? m.group(group) : "";
        }

        private static String text(List<Message> messages, MessageType type) {
            String found = "";
            for (Message m : messages) {
                if (m.getMessageType() == type) {
                    found = m.getText() == null ? "" : m.getText();
                }
            }
            return found;
        }
    }
}
