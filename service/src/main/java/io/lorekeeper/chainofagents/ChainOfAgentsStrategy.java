package io.lorekeeper.chainofagents;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntUnaryOperator;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.Documents;
import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.ContextLimit;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.strategy.AnswerParts;
import io.lorekeeper.strategy.BudgetGate;
import io.lorekeeper.strategy.ChunkedReading;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.LastResort;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.strategy.SettingsStrategy;
import io.lorekeeper.strategy.SpanLocator;
import io.lorekeeper.strategy.StepEvent;
import io.lorekeeper.strategy.StrategyRequirements;
import io.lorekeeper.strategy.StrategyResult;
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
 * become citations. When the next worker would not finish before the part of the budget kept for the
 * answer, reading stops and the manager answers from the summary so far. A worker whose reply is
 * unusable or cut leaves the summary as it was ({@code step.failed}); when the manager's is,
 * {@link LastResort} answers from the summary.
 */
@Component
class ChainOfAgentsStrategy extends SettingsStrategy<ChainOfAgentsStrategy.Settings> {

    /** The manager's confidence when it answered in prose: it gave none, and quoted nothing. */
    static final double PLAIN_TEXT_CONFIDENCE = 0.2;

    private static final Set<String> OPTIONS = Set.of("chunkTokens", "memoryFraction", "choicesInQuery", "holdAnswer");

    private final Documents documents;
    private final LlmGateway gateway;

    ChainOfAgentsStrategy(Documents documents, LlmGateway gateway) {
        super(
                "chain-of-agents",
                StrategyRequirements.of(
                        true,
                        "Chain of Agents: workers rewrite a bounded running summary over the text in 64K-token chunks; a manager answers from it"),
                options -> Settings.of(
                        options,
                        gateway.contextLimit(Role.RESEARCHER),
                        wanted -> gateway.outputLimit(Role.RESEARCHER, wanted)));
        this.documents = documents;
        this.gateway = gateway;
    }

    /**
     * The same knobs as COSMIR's: 64,000-token chunks (fewer when the workers' model has a smaller
     * context window), a summary of at most 0.125 × that (8,000 tokens), which the workers are asked
     * for in full: their reply limit is raised to carry it where the researcher's profile sets no
     * {@code max-output-tokens} of its own; where it does and that is too small, they are asked for
     * less ({@code summaryLowered} says why).
     *
     * @param requestedSummaryTokens the summary length the workers are asked for
     * @param workerOutputTokens     the workers' reply limit
     * @param summaryLowered         why the workers are asked for less than the cap, or null
     * @param holdAnswer             whether the workers are told not to answer the question yet (an option;
     *                               the paper's workers are not)
     */
    record Settings(
            int chunkTokens,
            boolean chunkLowered,
            double memoryFraction,
            boolean choicesInQuery,
            int requestedSummaryTokens,
            int workerOutputTokens,
            String summaryLowered,
            boolean holdAnswer) {

        static Settings of(QuestionOptions options, ContextLimit workers, IntUnaryOperator outputFor) {
            options.allowOnly(OPTIONS);
            double fraction = options.doubleValue("memoryFraction", 0.125, 0.01, 100);
            // The bounds ChunkedReading checks the option against.
            Long chunkOption = options.longValue("chunkTokens", 32, 2_000_000);
            int wantedCap =
                    cap(fraction, chunkOption == null ? ChunkedReading.DEFAULT_CHUNK_TOKENS : chunkOption.intValue());
            int output = Math.max(workers.maxOutputTokens(), outputFor.applyAsInt(replyTokens(wantedCap)));
            // The prompt must leave the raised reply limit free in the window, so the chunk is sized against it.
            ContextLimit raised = new ContextLimit(workers.profile(), workers.contextWindow(), output);
            ChunkedReading.ChunkSize size =
                    ChunkedReading.chunkSize("chain-of-agents", options, chunk -> cap(fraction, chunk), raised);
            int cap = cap(fraction, size.tokens());
            int fits = summaryFitting(output);
            String lowered = fits >= cap
                    ? null
                    : "profile '" + workers.profile() + "' sets max-output-tokens " + output
                            + ", which carries a summary of about " + fits + " tokens, not the cap of " + cap
                            + "; raise it to " + replyTokens(cap) + " for the full summary";
            return new Settings(
                    size.tokens(),
                    size.lowered(),
                    fraction,
                    options.booleanValue("choicesInQuery", true),
                    Math.min(cap, fits),
                    output,
                    lowered,
                    options.booleanValue("holdAnswer", false));
        }

        int summaryTokens() {
            return cap(memoryFraction, chunkTokens);
        }

        private static int cap(double fraction, int chunkTokens) {
            return (int) Math.min(Integer.MAX_VALUE / 4, Math.round(fraction * chunkTokens));
        }
    }

    /** Reply tokens per summary token: the summary as a JSON string, its quotation marks escaped. */
    static final double REPLY_PER_SUMMARY_TOKEN = 1.15;

    /** Reply tokens beyond the summary: the object around it and a margin. */
    static final int REPLY_OVERHEAD = 200;

    /** The reply limit a worker needs to hand back a summary of {@code summaryTokens}. */
    static int replyTokens(int summaryTokens) {
        return (int) Math.ceil(summaryTokens * REPLY_PER_SUMMARY_TOKEN) + REPLY_OVERHEAD;
    }

    /** The longest summary a reply limit of {@code output} tokens carries. */
    static int summaryFitting(int output) {
        return (int) Math.max(1, (output - REPLY_OVERHEAD) / REPLY_PER_SUMMARY_TOKEN);
    }

    /** The reading's wall time ({@link ChunkedReading#wallTime}): one worker per chunk, the manager. */
    @Override
    public Optional<Duration> defaultWallTime(QuestionOptions options, List<DocumentInfo> docs) {
        int chunks = ChunkedReading.expectedChunks(docs, settings(options).chunkTokens());
        return ChunkedReading.wallTime(chunks + 1L);
    }

    /** It reads the whole text: a worker per chunk, and the manager. */
    @Override
    public int minimumCalls(QuestionOptions options, List<DocumentInfo> documents) {
        return ChunkedReading.expectedChunks(documents, settings(options).chunkTokens()) + 1;
    }

    @Override
    protected StrategyResult answer(QuestionContext context, Settings settings) {
        List<ChunkedReading.Chunk> chunks = ChunkedReading.of(context.documents(), documents, settings.chunkTokens());
        recordReading(context, settings, chunks);
        String query = settings.choicesInQuery() ? AnswerParts.questionWithChoices(context) : context.question();
        Reading reading = read(context, settings, query, chunks);
        return manage(context, reading.summary(), reading.limited());
    }

    private static void recordReading(QuestionContext context, Settings settings, List<ChunkedReading.Chunk> chunks) {
        context.trace()
                .record(new ChainOfAgentsEvent.Reading(
                        context.documents().size(),
                        chunks.size(),
                        settings.chunkTokens(),
                        settings.chunkLowered(),
                        settings.summaryTokens(),
                        settings.requestedSummaryTokens(),
                        settings.workerOutputTokens(),
                        settings.summaryLowered(),
                        settings.holdAnswer(),
                        settings.choicesInQuery(),
                        chunks.size() + 1));
    }

    /** The summary after the chain, and whether the budget (or the clock) stopped it early. */
    private record Reading(String summary, boolean limited) {}

    /** One worker per chunk, each started only when its call fits before the answer's reserve. */
    private static Reading read(
            QuestionContext context, Settings settings, String query, List<ChunkedReading.Chunk> chunks) {
        String summary = "";
        int read = 0;
        try {
            for (ChunkedReading.Chunk chunk : chunks) {
                long tokens = TokenCounter.count(chunk.text())
                        + TokenCounter.count(summary)
                        + ChunkedReading.PROMPT_ALLOWANCE
                        + settings.requestedSummaryTokens();
                if (BudgetGate.of(context).stop("reading", read + 1, 1, tokens).isPresent()) {
                    return new Reading(summary, true);
                }
                summary = work(context, settings, query, chunk, summary);
                read++;
            }
            return new Reading(summary, false);
        } catch (BudgetExhaustedException spent) {
            stopped(context, read, spent.getMessage());
            return new Reading(summary, true);
        }
    }

    /** Records why the reading stopped after {@code read} chunks: the next chunk is the round that did not run. */
    private static void stopped(QuestionContext context, int read, String reason) {
        context.trace().record(new StepEvent.BudgetSpent("reading", read + 1, reason));
    }

    /**
     * One worker: the summary rewritten with what the chunk adds, cut to the cap; an unusable reply (or
     * one cut at the output limit with nothing complete) leaves it as it was.
     */
    private static String work(
            QuestionContext context, Settings settings, String query, ChunkedReading.Chunk chunk, String previous) {
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("query", query);
        vars.put("summary", previous.isEmpty() ? "(nothing yet: this is the first part)" : previous);
        vars.put("summaryWords", Math.max(1, settings.requestedSummaryTokens() * 3 / 4));
        vars.put(
                "answerRule",
                settings.holdAnswer()
                        ? "Do not answer the question yet, and do not invent anything the text does not say."
                        : "Do not invent anything the text does not say.");
        vars.put("chunkLabel", chunk.heading(context.documents().size()));
        vars.put("chunk", chunk.text());
        String written;
        try {
            written = context.llm()
                    .withOutputLimit(Role.RESEARCHER, settings.workerOutputTokens())
                    .structuredOrText(
                            Role.RESEARCHER,
                            "chain-of-agents/worker",
                            vars,
                            CoaReplies.Summary.class,
                            CoaReplies.Summary::new)
                    .summary()
                    .strip();
        } catch (UnusableReplyException unusable) {
            context.trace().record(new StepEvent.Failed("worker", null, chunk.number(), unusable.getMessage()));
            return previous;
        }
        String kept = bounded(written, settings.summaryTokens());
        context.trace()
                .record(new ChainOfAgentsEvent.Worker(
                        chunk.number(),
                        chunk.documentId(),
                        List.of(chunk.span().start(), chunk.span().end()),
                        TokenCounter.count(kept),
                        TokenCounter.count(written) - TokenCounter.count(kept),
                        kept));
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
        vars.put("abstainRule", AnswerParts.abstainRule(context));
        CoaReplies.Answer reply;
        try {
            reply = context.llm()
                    .answering()
                    .structuredOrText(
                            Role.ANSWERER,
                            "chain-of-agents/manage",
                            vars,
                            CoaReplies.Answer.class,
                            prose -> new CoaReplies.Answer(prose.strip(), List.of(), PLAIN_TEXT_CONFIDENCE, null));
        } catch (UnusableReplyException unusable) {
            context.trace().record(new StepEvent.Failed("manage", unusable.getMessage()));
            return lastResort(context, summary, "the manager's reply was unusable: " + unusable.getMessage(), limited);
        }
        List<Citation> citations = new ArrayList<>();
        List<String> unlocated = new ArrayList<>();
        for (String quote : new LinkedHashSet<>(reply.quotes() == null ? List.<String>of() : reply.quotes())) {
            Optional<Citation> found = locate(context.documents(), quote);
            found.ifPresentOrElse(citations::add, () -> unlocated.add(quote));
        }
        Integer choice = AnswerParts.validChoice(context, reply.choice());
        String answer = choice != null ? context.choices().get(choice) : reply.answer();
        context.trace().record(new ChainOfAgentsEvent.Manage(answer, reply.confidence(), citations.size(), unlocated));
        return new StrategyResult(answer, StrategyResult.GENERATED, citations, reply.confidence(), choice, limited);
    }

    private static final Pattern QUOTED = Pattern.compile("[\"“]([^\"”]{10,})[\"”]");

    /**
     * The answer when the manager cannot give one: one plain call over the summary, with the passages it
     * quoted that are found in the documents as the evidence to cite.
     */
    private StrategyResult lastResort(QuestionContext context, String summary, String reason, boolean limited) {
        List<LastResort.Evidence> evidence = new ArrayList<>();
        evidence.add(LastResort.Evidence.note(summary));
        Set<String> quotes = new LinkedHashSet<>();
        QUOTED.matcher(summary).results().map(m -> m.group(1).strip()).forEach(quotes::add);
        for (String quote : quotes) {
            locate(context.documents(), quote).ifPresent(c -> evidence.add(new LastResort.Evidence(c.quote(), c)));
        }
        return LastResort.answer(context, reason, evidence, limited);
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
