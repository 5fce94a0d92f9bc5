package io.lorekeeper.llm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.ToolResponseMessage;
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
 * <li>{@code mindgraph/build}: one claim node per block, its content and quote the block's first sentence;</li>
 * <li>{@code mindgraph/answer}: first {@code lookup_source} on the first node of the graph, then the first
 * sentence of the passage it returned, citing that node (no node: "not available");</li>
 * <li>{@code memcot/zoom-in}: keeps the first two passages found; {@code memcot/zoom-out}: keeps the first passage of the
 * first window that is neither selected nor known; {@code memcot/judge}: keeps every candidate and can answer when there is
 * one or the memory holds evidence, else BREAK with no new queries (so the loop ends); {@code memcot/answer}: the first
 * sentence of the first evidence passage, cited by its id (none: "not available");</li>
 * <li>{@code cosmir/plan}: the question as the only open question; {@code cosmir/extract}: one fact, the
 * chunk's first sentence, quoting itself; {@code cosmir/infer}: one inferred fact restating the newest
 * gathered fact, resting on it; {@code cosmir/refine}: the open questions unchanged; {@code cosmir/manage}:
 * the oldest gathered fact held, citing it (none: "not available");</li>
 * <li>{@code chain-of-agents/worker}: the summary so far plus the chunk's first sentence in double quotes;
 * {@code chain-of-agents/manage}: the summary's first quoted passage, quoting it (none: "not available");</li>
 * <li>{@code comorag/*}: see {@link SimulatedComoRag};</li>
 * <li>{@code last-resort/answer}: the first sentence of evidence 1, as plain text;</li>
 * <li>{@code eval/judge}: correct when every word of one reference answer (lower case, a/an/the/and dropped)
 * appears in the candidate, or, when the reference says the information is not available, when the
 * candidate says so too.</li>
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
        private static final Pattern PASSAGE =
                Pattern.compile("<passage n=\"1\"[^>]*>\\n(.*?)\\n</passage>", Pattern.DOTALL);
        private static final Pattern EXCERPT =
                Pattern.compile("<excerpt n=\"1\"[^>]*>\\n(.*?)\\n</excerpt>", Pattern.DOTALL);
        private static final Pattern PAGE_REF = Pattern.compile(
                "<page ref=\"D(\\d+)-P(\\d+)\">\\n(?:\\(context: [^\\n]*\\)\\n)?(.*?)\\n</page>", Pattern.DOTALL);
        private static final Pattern EVIDENCE =
                Pattern.compile("<evidence n=\"1\">\\n(.*?)\\n</evidence>", Pattern.DOTALL);
        private static final Pattern PAGE = Pattern.compile("<page>\\n(.*?)\\n</page>", Pattern.DOTALL);
        private static final Pattern BLOCK = Pattern.compile("<block>\\n(.*?)\\n</block>", Pattern.DOTALL);
        private static final Pattern BLOCK_NUMBER = Pattern.compile("Block (\\d+) of \\d+:");
        private static final Pattern NODE_ID = Pattern.compile("\"id\":\"([^\"]+)\"");
        private static final Pattern SOURCE = Pattern.compile("<source>\\n(.*?)\\n</source>", Pattern.DOTALL);
        private static final Pattern REQUEST = Pattern.compile("<request>\\n(.*?)\\n</request>", Pattern.DOTALL);
        private static final Pattern REFERENCE = Pattern.compile("<reference>\\n(.*?)\\n</reference>", Pattern.DOTALL);
        private static final Pattern CANDIDATE = Pattern.compile("<candidate>\\n(.*?)\\n</candidate>", Pattern.DOTALL);
        private static final Pattern QUESTION = Pattern.compile("<question>\\n(.*?)\\n</question>", Pattern.DOTALL);
        private static final Pattern NOTES = Pattern.compile("<notes>\\n(.*?)\\n</notes>", Pattern.DOTALL);
        private static final Pattern SUMMARY = Pattern.compile("<summary>\\n(.*?)\\n</summary>", Pattern.DOTALL);
        private static final Pattern GATHERED = Pattern.compile("(?m)^\\[(G\\d+)] (.*?) \\(chunk \\d+\\)(?: — .*)?$");
        private static final Pattern OPEN_QUESTION = Pattern.compile("(?m)^- (.*)$");
        private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");
        private static final Pattern NON_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");
        private static final Set<String> STOP_WORDS = Set.of("a", "an", "the", "and");
        private static final Pattern DECLINES =
                Pattern.compile("not available|no information|not mentioned|cannot be answered");
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
            if (template.equals("mindgraph/answer")) {
                return respond(mindGraphAnswer(user, toolResult(messages)), messages);
            }
            if (template.equals("last-resort/answer")) {
                String first = firstSentences(group(EVIDENCE, user, 1), 1);
                return respond(
                        AssistantMessage.builder()
                                .content(first.isEmpty() ? NOT_AVAILABLE : first)
                                .build(),
                        messages);
            }
            return respond(
                    AssistantMessage.builder()
                            .content(JSON.writeValueAsString(reply(template, system, user)))
                            .build(),
                    messages);
        }

        /** Sleeps the simulated latency and wraps the reply with usage counted by the real tokenizer. */
        private ChatResponse respond(AssistantMessage message, List<Message> messages) {
            if (!latency.isZero()) {
                try {
                    Thread.sleep(latency);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            int promptTokens = messages.stream()
                    .mapToInt(m -> TokenCounter.count(String.valueOf(m.getText())) + 4)
                    .sum();
            String reply = message.getText() == null ? "" : message.getText();
            int completionTokens = TokenCounter.count(reply)
                    + message.getToolCalls().stream()
                            .mapToInt(c -> TokenCounter.count(c.name() + c.arguments()))
                            .sum();
            return new ChatResponse(
                    List.of(new Generation(message)),
                    ChatResponseMetadata.builder()
                            .usage(new DefaultUsage(promptTokens, completionTokens))
                            .build());
        }

        /**
         * MindGraph's tool loop in two rounds: look up the first node of the graph, then answer with the
         * first sentence of the passage that came back, citing the node.
         */
        static AssistantMessage mindGraphAnswer(String user, String toolResult) {
            Matcher node = NODE_ID.matcher(user.substring(Math.max(0, user.indexOf("Graph:"))));
            Map<String, Object> out = new LinkedHashMap<>();
            if (toolResult == null && node.find()) {
                return AssistantMessage.builder()
                        .content("")
                        .toolCalls(List.of(new AssistantMessage.ToolCall(
                                "call_1",
                                "function",
                                "lookup_source",
                                JSON.writeValueAsString(Map.of("node_id", node.group(1))))))
                        .build();
            }
            String first = toolResult == null ? "" : firstSentences(group(SOURCE, toolResult, 1), 1);
            if (first.isEmpty() || !node.find()) {
                out.put("answer", NOT_AVAILABLE);
                out.put("cited_nodes", List.of());
                out.put("confidence", "low");
            } else {
                out.put("answer", first);
                out.put("cited_nodes", List.of(node.group(1)));
                out.put("confidence", "medium");
                out.put("quotes", List.of(Map.of("node_id", node.group(1), "quote", first)));
            }
            if (user.contains("\nChoices:\n")) {
                out.put("choice", 0);
            }
            return AssistantMessage.builder()
                    .content(JSON.writeValueAsString(out))
                    .build();
        }

        private static String toolResult(List<Message> messages) {
            for (Message m : messages) {
                if (m instanceof ToolResponseMessage tool
                        && !tool.getResponses().isEmpty()) {
                    return tool.getResponses().getFirst().responseData();
                }
            }
            return null;
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
                        out.put(
                                "facts",
                                List.of(Map.of(
                                        "fact",
                                        summary,
                                        "sources",
                                        List.of(Map.of(
                                                "doc",
                                                Integer.parseInt(page.group(1)),
                                                "page",
                                                Integer.parseInt(page.group(2)))))));
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
                case "mindgraph/build" -> {
                    String first = firstSentences(group(BLOCK, user, 1), 1);
                    out.put(
                            "operations",
                            first.isEmpty()
                                    ? List.of()
                                    : List.of(Map.of(
                                            "op",
                                            "add_node",
                                            "id",
                                            "n" + group(BLOCK_NUMBER, user, 1) + "x"
                                                    + Integer.toHexString(first.hashCode()),
                                            "type",
                                            "claim",
                                            "content",
                                            first,
                                            "src",
                                            first)));
                }
                case "memcot/zoom-in", "memcot/zoom-out", "memcot/judge", "memcot/answer" ->
                    MemCot.reply(template, user, out);
                case "cosmir/plan" -> {
                    out.put("thinking", "simulated: the question itself is the only open question");
                    out.put("questions", List.of(group(QUESTION, user, 1).strip()));
                }
                case "cosmir/extract" -> {
                    String first = firstSentences(group(SOURCE, user, 1), 1);
                    out.put("facts", first.isEmpty() ? List.of() : List.of(Map.of("fact", first, "quote", first)));
                }
                case "cosmir/infer" -> {
                    List<MatchResult> facts =
                            GATHERED.matcher(group(NOTES, user, 1)).results().toList();
                    out.put(
                            "inferred",
                            facts.isEmpty()
                                    ? List.of()
                                    : List.of(Map.of(
                                            "fact",
                                            "The text states: "
                                                    + facts.getLast().group(2),
                                            "basis",
                                            List.of(facts.getLast().group(1)))));
                }
                case "cosmir/refine" -> {
                    String notes = group(NOTES, user, 1);
                    String open = notes.substring(0, Math.max(0, notes.indexOf("\nGathered facts:")));
                    out.put(
                            "questions",
                            OPEN_QUESTION
                                    .matcher(open)
                                    .results()
                                    .map(m -> m.group(1))
                                    .toList());
                }
                case "cosmir/manage" -> {
                    Matcher fact = GATHERED.matcher(group(NOTES, user, 1));
                    boolean found = fact.find();
                    out.put("answer", found ? fact.group(2) : NOT_AVAILABLE);
                    out.put("rationale", found ? "simulated: the oldest gathered fact" : "simulated: no facts");
                    out.put("citedFacts", found ? List.of(fact.group(1)) : List.of());
                    out.put("confidence", found ? 0.5 : 0.0);
                    out.put("choice", user.contains("\nChoices:\n") ? 0 : null);
                }
                case "chain-of-agents/worker" -> {
                    String previous = group(SUMMARY, user, 1).strip();
                    String first = firstSentences(group(SOURCE, user, 1), 1).replace("\"", "'");
                    String summary = previous.startsWith("(nothing yet") ? "" : previous;
                    out.put("summary", first.isEmpty() ? summary : (summary + "\n\"" + first + "\"").strip());
                }
                case "chain-of-agents/manage" -> {
                    Matcher quoted = QUOTED.matcher(group(SUMMARY, user, 1));
                    boolean found = quoted.find();
                    out.put("answer", found ? quoted.group(1) : NOT_AVAILABLE);
                    out.put("quotes", found ? List.of(quoted.group(1)) : List.of());
                    out.put("confidence", found ? 0.5 : 0.0);
                    out.put("choice", user.contains("\nChoices:\n") ? 0 : null);
                }
                case "gam/memo" ->
                    out.put("memo", orDefault(firstSentences(group(PAGE, user, 1), 1), "An empty page."));
                case "gam/page-header" ->
                    out.put("header", orDefault(firstSentences(group(PAGE, user, 1), 1), "An empty page."));
                case "eval/judge" -> {
                    boolean correct = judge(group(REFERENCE, user, 1), group(CANDIDATE, user, 1));
                    out.put("verdict", correct ? "correct" : "incorrect");
                    out.put(
                            "reason",
                            correct
                                    ? "simulated: the candidate contains the reference"
                                    : "simulated: the reference is missing");
                }
                case "comorag/triples",
                        "comorag/ner",
                        "comorag/fact-filter",
                        "comorag/semantic-summary",
                        "comorag/episodic-summary",
                        "comorag/probe",
                        "comorag/encode",
                        "comorag/encode-layers",
                        "comorag/fuse",
                        "comorag/answer" -> SimulatedComoRag.reply(template, user, out);
                default ->
                    throw new IllegalStateException(
                            "the simulated model has no rule for prompt template '" + template + "'");
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

        /** MemCoT's four agents; units are {@code <passage id="D1-C4" ...>} blocks in the prompt's sections. */
        static final class MemCot {
            private static final Pattern UNIT =
                    Pattern.compile("<passage id=\"([^\"]+)\"([^>]*)>\\n(.*?)\\n</passage>", Pattern.DOTALL);

            static void reply(String template, String user, Map<String, Object> out) {
                switch (template) {
                    case "memcot/zoom-in" -> {
                        out.put("thinking", "simulated: the first two passages");
                        out.put("missingInformation", "");
                        out.put(
                                "usefulIds",
                                ids(after(user, "Passages found:")).stream()
                                        .limit(2)
                                        .toList());
                    }
                    case "memcot/zoom-out" -> {
                        String windows = after(user, "Context windows:");
                        String first = windows.contains("</context>")
                                ? windows.substring(0, windows.indexOf("</context>"))
                                : windows;
                        Matcher m = UNIT.matcher(first);
                        List<String> kept = new ArrayList<>();
                        while (m.find() && kept.isEmpty()) {
                            if (!m.group(2).contains("selected=") && !m.group(2).contains("known=")) {
                                kept.add(m.group(1));
                            }
                        }
                        out.put("thinking", "simulated: the first new passage of the first window");
                        out.put("missingInformation", "");
                        out.put("usefulIds", kept);
                    }
                    case "memcot/judge" -> {
                        List<String> candidates = ids(after(user, "Candidates found in this step:"));
                        boolean known =
                                !ids(between(user, "<memory>", "</memory>")).isEmpty();
                        out.put("thinking", "simulated: keep every candidate");
                        out.put("usefulIds", candidates);
                        out.put("canAnswer", !candidates.isEmpty() || known);
                        out.put("action", "BREAK");
                        out.put("newQueries", List.of());
                        out.put("resolved", List.of());
                    }
                    default -> {
                        Matcher m = UNIT.matcher(between(user, "<memory>", "</memory>"));
                        String first = m.find() ? firstSentences(m.group(3), 1) : "";
                        out.put("answer", first.isEmpty() ? NOT_AVAILABLE : first);
                        out.put(
                                "evidence",
                                first.isEmpty() ? List.of() : List.of(Map.of("id", m.group(1), "quote", first)));
                        out.put("confidence", first.isEmpty() ? 0.0 : 0.5);
                        out.put("choice", user.contains("\nChoices:\n") ? 0 : null);
                    }
                }
            }

            private static List<String> ids(String text) {
                List<String> ids = new ArrayList<>();
                Matcher m = UNIT.matcher(text);
                while (m.find()) {
                    ids.add(m.group(1));
                }
                return ids;
            }

            private static String after(String text, String marker) {
                int at = text.indexOf(marker);
                return at < 0 ? "" : text.substring(at + marker.length());
            }

            private static String between(String text, String from, String to) {
                int start = text.indexOf(from);
                int end = start < 0 ? -1 : text.indexOf(to, start);
                return end < 0 ? "" : text.substring(start + from.length(), end);
            }
        }

        /** Token containment, not meaning: a deterministic stand-in that needs no model. */
        static boolean judge(String reference, String candidate) {
            String answer = candidate.toLowerCase(Locale.ROOT);
            List<String> golds = reference
                    .lines()
                    .map(l -> l.startsWith("- ") ? l.substring(2) : l)
                    .filter(l -> !l.isBlank())
                    .toList();
            if (golds.stream()
                    .anyMatch(g -> DECLINES.matcher(g.toLowerCase(Locale.ROOT)).find())) {
                return DECLINES.matcher(answer).find();
            }
            Set<String> said = words(answer);
            return golds.stream()
                    .map(g -> words(g.toLowerCase(Locale.ROOT)))
                    .anyMatch(g -> !g.isEmpty() && said.containsAll(g));
        }

        private static Set<String> words(String text) {
            Set<String> out = new HashSet<>(List.of(NON_WORD.split(text)));
            out.removeIf(w -> w.isEmpty() || STOP_WORDS.contains(w));
            return out;
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
