package io.lorekeeper.reasoning.chainofagents;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.Documents;
import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.ContextLimit;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.reasoning.AnswerParts;
import io.lorekeeper.reasoning.AnswerStrategy;
import io.lorekeeper.reasoning.ChunkedReading;
import io.lorekeeper.reasoning.Citation;
import io.lorekeeper.reasoning.QuestionContext;
import io.lorekeeper.reasoning.QuestionOptions;
import io.lorekeeper.reasoning.SpanLocator;
import io.lorekeeper.reasoning.StrategyRequirements;
import io.lorekeeper.reasoning.StrategyResult;
import io.lorekeeper.text.SentenceSplitter;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;

/**
 * Chain of Agents, the baseline COSMIR is measured against: the documents are read in order in
 * the same chunks; each worker sees the question, the summary so far and its chunk, and rewrites
 * the summary (at most {@code memoryFraction} × the chunk length) for the next; the manager
 * answers from the last summary. chunks + 1 calls.
 *
 * <p>A summary is not source text, so nothing in it is cited as such: the manager may hand back
 * words the summary carried in quotation marks, and only those found verbatim in the documents
 * become citations. When the budget would not cover the next chunk and the answer, reading stops
 * and the manager answers from the summary so far.
 */
@Component
class ChainOfAgentsStrategy implements AnswerStrategy {

    /** The manager's confidence when it answered in prose: it gave none, and quoted nothing. */
    static final double PLAIN_TEXT_CONFIDENCE = 0.2;

    private static final Set<String> OPTIONS = Set.of("chunkTokens", "memoryFraction", "choicesInQuery");

    private final Documents documents;
    private final LlmGateway gateway;

    ChainOfAgentsStrategy(Documents documents, LlmGateway gateway) {
        this.documents = documents;
        this.gateway = gateway;
    }

    /**
     * The same knobs as COSMIR's: 64,000-token chunks (fewer when the workers' model has a smaller
     * context window), a summary of at most 0.125 × that (8,000 tokens).
     */
    record Settings(int chunkTokens, boolean chunkLowered, double memoryFraction, boolean choicesInQuery) {

        static Settings of(QuestionOptions options, ContextLimit workers) {
            options.allowOnly(OPTIONS);
            double fraction = options.doubleValue("memoryFraction", 0.125, 0.01, 100);
            ChunkedReading.ChunkSize size =
                    ChunkedReading.chunkSize("chain-of-agents", options, chunk -> cap(fraction, chunk), workers);
            return new Settings(size.tokens(), size.lowered(), fraction, options.booleanValue("choicesInQuery", true));
        }

        int summaryTokens() {
            return cap(memoryFraction, chunkTokens);
        }

        private static int cap(double fraction, int chunkTokens) {
            return (int) Math.min(Integer.MAX_VALUE / 4, Math.round(fraction * chunkTokens));
        }
    }

    @Override
    public String name() {
        return "chain-of-agents";
    }

    @Override
    public StrategyRequirements requirements() {
        return new StrategyRequirements(
                true,
                Set.of(),
                "Chain of Agents: workers rewrite a bounded running summary over the text in 64K-token chunks; a manager answers from it");
    }

    @Override
    public void validate(QuestionOptions options) {
        Settings.of(options, gateway.contextLimit(Role.RESEARCHER));
    }

    @Override
    public StrategyResult answer(QuestionContext context) {
        Settings settings = Settings.of(context.options(), gateway.contextLimit(Role.RESEARCHER));
        List<ChunkedReading.Chunk> chunks = ChunkedReading.of(context.documents(), documents, settings.chunkTokens());
        context.trace()
                .record(
                        "reading",
                        Map.of(
                                "documents",
                                context.documents().size(),
                                "chunks",
                                chunks.size(),
                                "chunkTokens",
                                settings.chunkTokens(),
                                "chunkLowered",
                                settings.chunkLowered(),
                                "summaryTokens",
                                settings.summaryTokens(),
                                "choicesInQuery",
                                settings.choicesInQuery(),
                                "expectedCalls",
                                chunks.size() + 1));
        String query = settings.choicesInQuery() ? AnswerParts.questionWithChoices(context) : context.question();
        String summary = "";
        boolean limited = false;
        int read = 0;
        try {
            for (ChunkedReading.Chunk chunk : chunks) {
                context.cancellation().throwIfCancelled();
                long tokens = TokenCounter.count(chunk.text())
                        + 2L * (TokenCounter.count(summary) + ChunkedReading.PROMPT_ALLOWANCE)
                        + settings.summaryTokens();
                if (!context.llm().budget().affords(2, tokens)) {
                    limited = true;
                    context.trace()
                            .record(
                                    "budget",
                                    Map.of(
                                            "phase",
                                            "reading",
                                            "chunksRead",
                                            read,
                                            "chunks",
                                            chunks.size(),
                                            "reason",
                                            "the budget left would not cover this chunk's worker call and the manager's"));
                    break;
                }
                summary = work(context, settings, query, chunk, summary);
                read++;
            }
        } catch (BudgetExhaustedException spent) {
            limited = true;
            context.trace()
                    .record(
                            "budget",
                            Map.of(
                                    "phase",
                                    "reading",
                                    "chunksRead",
                                    read,
                                    "chunks",
                                    chunks.size(),
                                    "reason",
                                    spent.getMessage()));
        }
        return manage(context, summary, limited);
    }

    /** One worker: the summary rewritten with what the chunk adds, cut to the cap; an unusable reply leaves it as it was. */
    private static String work(
            QuestionContext context, Settings settings, String query, ChunkedReading.Chunk chunk, String previous) {
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("query", query);
        vars.put("summary", previous.isEmpty() ? "(nothing yet: this is the first part)" : previous);
        vars.put("summaryWords", settings.summaryTokens() * 3 / 4);
        vars.put("chunkLabel", chunk.heading(context.documents().size()));
        vars.put("chunk", chunk.text());
        String written;
        try {
            written = context.llm()
                    .structuredOrText(
                            Role.RESEARCHER,
                            "chain-of-agents/worker",
                            vars,
                            CoaReplies.Summary.class,
                            CoaReplies.Summary::new)
                    .summary()
                    .strip();
        } catch (UnusableReplyException unusable) {
            context.trace()
                    .record(
                            "step.failed",
                            Map.of("step", "worker", "chunk", chunk.number(), "reason", unusable.getMessage()));
            return previous;
        }
        String kept = bounded(written, settings.summaryTokens());
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("chunk", chunk.number());
        event.put("documentId", chunk.documentId());
        event.put("span", List.of(chunk.span().start(), chunk.span().end()));
        event.put("summaryTokens", TokenCounter.count(kept));
        event.put("cutTokens", TokenCounter.count(written) - TokenCounter.count(kept));
        event.put("summary", kept);
        context.trace().record("worker", event);
        return kept;
    }

    /** The summary's leading sentences that fit {@code cap} tokens: the bound the workers are asked to keep, enforced. */
    static String bounded(String summary, int cap) {
        if (TokenCounter.count(summary) <= cap) {
            return summary;
        }
        int end = 0;
        int used = 0;
        for (Span sentence : SentenceSplitter.split(summary)) {
            int n = TokenCounter.count(summary, end, sentence.end());
            if (used + n > cap) {
                break;
            }
            used += n;
            end = sentence.end();
        }
        return summary.substring(0, end).strip();
    }

    private StrategyResult manage(QuestionContext context, String summary, boolean limited) {
        Map<String, Object> vars = new LinkedHashMap<>(AnswerParts.choiceVariables(context));
        vars.put("question", context.question());
        vars.put("summary", summary.isEmpty() ? "(empty: nothing was read)" : summary);
        CoaReplies.Answer reply;
        try {
            reply = context.llm()
                    .structuredOrText(
                            Role.ANSWERER,
                            "chain-of-agents/manage",
                            vars,
                            CoaReplies.Answer.class,
                            prose -> new CoaReplies.Answer(prose.strip(), List.of(), PLAIN_TEXT_CONFIDENCE, null));
        } catch (BudgetExhaustedException spent) {
            context.trace().record("budget", Map.of("phase", "manage", "reason", spent.getMessage()));
            return withoutManager(context, summary, true);
        } catch (UnusableReplyException unusable) {
            context.trace().record("step.failed", Map.of("step", "manage", "reason", unusable.getMessage()));
            return withoutManager(context, summary, limited);
        }
        List<Citation> citations = new ArrayList<>();
        List<String> unlocated = new ArrayList<>();
        for (String quote : new LinkedHashSet<>(reply.quotes() == null ? List.<String>of() : reply.quotes())) {
            Optional<Citation> found = locate(context.documents(), quote);
            found.ifPresentOrElse(citations::add, () -> unlocated.add(quote));
        }
        Integer choice = AnswerParts.validChoice(context, reply.choice());
        String answer = choice != null ? context.choices().get(choice) : reply.answer();
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("answer", answer);
        event.put("confidence", reply.confidence());
        event.put("quotesLocated", citations.size());
        event.put("quotesUnlocated", unlocated);
        context.trace().record("manage", event);
        return new StrategyResult(answer, StrategyResult.GENERATED, citations, reply.confidence(), choice, limited);
    }

    /** The summary itself is all the chain has when its manager cannot answer; it cites nothing. */
    private static StrategyResult withoutManager(QuestionContext context, String summary, boolean limited) {
        context.trace().record("manage.skipped", Map.of("answer", summary));
        return new StrategyResult(summary, StrategyResult.GENERATED, List.of(), 0.0, null, limited);
    }

    /** Quotes shorter than this many words pin down no particular place in a long text, and are not cited. */
    static final int MIN_QUOTE_WORDS = 3;

    /** The first place, in document order, where the quote is the text (exactly or up to whitespace). */
    private Optional<Citation> locate(List<DocumentInfo> docs, String quote) {
        if (quote == null || quote.strip().split("\\s+").length < MIN_QUOTE_WORDS) {
            return Optional.empty();
        }
        for (DocumentInfo doc : docs) {
            String text = documents.text(doc.id());
            Optional<Span> span = SpanLocator.locate(quote, text, 0);
            if (span.isPresent()) {
                return Optional.of(Citation.of(
                        doc.id(),
                        span.get().start(),
                        span.get().end(),
                        span.get().of(text)));
            }
        }
        return Optional.empty();
    }
}
