package io.lorekeeper.mindgraph;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.Documents;
import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.strategy.AnswerParts;
import io.lorekeeper.strategy.Aptitude;
import io.lorekeeper.strategy.ChunkedReading;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.GoodAt;
import io.lorekeeper.strategy.LastResort;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.strategy.QuoteResolver;
import io.lorekeeper.strategy.SettingsStrategy;
import io.lorekeeper.strategy.StepEvent;
import io.lorekeeper.strategy.StrategyRequirements;
import io.lorekeeper.strategy.StrategyResult;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;

/**
 * MindGraph (seed 003): a question-aware concept graph with character-level provenance, built
 * incrementally block by block from the empty graph (or taken from the shared graph of the
 * {@code graph} stage), then a tool loop over it with {@code lookup_source} and
 * {@code subgraph_summary}. Citations are the spans of the nodes the answer cites, and quotes from
 * the passages it looked up.
 *
 * <p>Options: {@code chunkTokens} (build block size, default 8,192), {@code maxRounds} (tool
 * rounds, default 40), {@code graph}: {@code question} (default; a question-aware build) or
 * {@code shared} (answer from the shared graph as is, no build calls), and {@code start}:
 * {@code empty} (default, the paper's G0) or {@code shared} (a question-aware build that starts
 * from the shared graph).
 *
 * <p>The build leaves part of the question's budget for answering: when a long document would
 * spend it, the build stops and the question is answered from the graph so far, marked
 * budget-limited; the next question with the same (document, question) resumes the build. The
 * answer stage checks the budget before each tool round: with no room for a round it answers in one
 * call over the graph without tools, and when the budget ends its rounds, or its final reply has
 * nothing usable, the last resort answers over the passages it looked up and the nodes matching the
 * question best. It never answers with nothing.
 */
@Component
class MindGraphStrategy extends SettingsStrategy<MindGraphStrategy.Settings> {

    static final String TEMPLATE = "mindgraph/answer";
    private static final Set<String> OPTIONS = Set.of("chunkTokens", "maxRounds", "graph", "start");

    private final GraphBuilder builder;
    private final GraphStore store;
    private final Documents documents;
    private final MindGraphSettings defaults;

    MindGraphStrategy(GraphBuilder builder, GraphStore store, Documents documents, MindGraphSettings defaults) {
        super(
                "mindgraph",
                StrategyRequirements.of(
                        true,
                        "MindGraph: question-aware concept graph with provenance, then a lookup_source/subgraph_summary tool loop"),
                options -> settings(options, defaults));
        this.builder = builder;
        this.store = store;
        this.documents = documents;
        this.defaults = defaults;
    }

    record Settings(int chunkTokens, int maxRounds, String graph, GraphBuilder.Start start) {}

    private static Settings settings(QuestionOptions options, MindGraphSettings defaults) {
        options.allowOnly(OPTIONS);
        return new Settings(
                options.intValue("chunkTokens", defaults.chunkTokens(), 32, 128_000),
                options.intValue("maxRounds", defaults.maxRounds(), 1, 100),
                options.stringValue("graph", "question", Set.of("question", "shared")),
                options.stringValue("start", "empty", Set.of("empty", "shared")).equals("shared")
                        ? GraphBuilder.Start.SHARED
                        : GraphBuilder.Start.EMPTY);
    }

    /**
     * A question-aware build of a few blocks for a shorter text's whole story; over a long text, the
     * shared graph as is (a build there would spend most of the budget before the answer).
     */
    @Override
    public List<GoodAt> goodAt() {
        return List.of(
                GoodAt.of(Aptitude.TEXT_WHOLE_STORY, 10),
                new GoodAt(Aptitude.LONG_TEXT_WHOLE_STORY, 20, Map.of("graph", "shared")));
    }

    /** A build call per block, then the answer; over the shared graph only the answer. */
    @Override
    public int minimumCalls(QuestionOptions options, List<DocumentInfo> documents) {
        Settings settings = settings(options);
        return settings.graph().equals("shared")
                ? 1
                : ChunkedReading.expectedChunks(documents, settings.chunkTokens()) + 1;
    }

    @Override
    public java.util.Optional<java.time.Duration> defaultWallTime() {
        return java.util.Optional.of(defaults.wallTime());
    }

    /** A build reads the whole document; answering from the shared graph as is takes the service's default. */
    @Override
    public java.util.Optional<java.time.Duration> defaultWallTime(
            QuestionOptions options, List<DocumentInfo> documents) {
        return settings(options).graph().equals("shared") ? java.util.Optional.empty() : defaultWallTime();
    }

    /** Answering from the shared graph as is needs that graph; a question-aware build makes its own. */
    @Override
    public Set<String> requiredMemories(QuestionOptions options) {
        return settings(options).graph().equals("shared") ? Set.of(GraphStage.NAME) : Set.of();
    }

    /** A build asked to start from the shared graph starts empty when there is none, and says so. */
    @Override
    public Set<String> optionalMemories(QuestionOptions options) {
        Settings settings = settings(options);
        return settings.graph().equals("question") && settings.start() == GraphBuilder.Start.SHARED
                ? Set.of(GraphStage.NAME)
                : Set.of();
    }

    @Override
    protected StrategyResult answer(QuestionContext context, Settings settings) {
        AnswerReserve reserve = new AnswerReserve(defaults.answerReserve());
        List<GraphSet.Part> parts = new ArrayList<>();
        boolean partial = false;
        for (DocumentInfo document : context.documents()) {
            GraphBuilder.Built built = null;
            if (settings.graph().equals("shared")) {
                built = store.shared(document.id())
                        .filter(r -> r.status().equals(GraphStore.READY))
                        .map(r -> new GraphBuilder.Built(
                                r.id(), store.load(r.id()), r.blocksDone(), r.rejected(), true, null, 0, false))
                        .orElse(null);
            }
            if (built == null && partial) {
                // the budget stopped an earlier document's build: the rest answer with what they already have
                built = builder.partial(document.id(), context.question(), settings.start(), settings.chunkTokens());
            } else if (built == null) {
                try {
                    built = builder.obtain(
                            context.llm(),
                            document.id(),
                            context.question(),
                            settings.start(),
                            settings.chunkTokens(),
                            reserve,
                            context.cancellation(),
                            context.trace(),
                            GraphBuilder.Progress.NONE,
                            null);
                } catch (BudgetExhaustedException spent) {
                    context.trace().record(new StepEvent.BudgetSpent("build", spent.getMessage()));
                    built = builder.partial(
                            document.id(), context.question(), settings.start(), settings.chunkTokens());
                }
            }
            partial |= built.partial();
            parts.add(new GraphSet.Part(document.id(), documents.text(document.id()), built));
        }
        GraphSet graphs = new GraphSet(parts);
        recordGraph(context, graphs, settings);
        return answer(context, settings, graphs, partial);
    }

    private void recordGraph(QuestionContext context, GraphSet graphs, Settings settings) {
        for (GraphSet.Part part : graphs.parts()) {
            ConceptGraph graph = part.built().graph();
            int graphTokens = TokenCounter.count(graph.compactJson());
            int documentTokens = TokenCounter.count(part.text());
            GraphBuilder.Built built = part.built();
            context.trace()
                    .record(new MindGraphEvent.Graph(
                            part.documentId(),
                            built.graphId(),
                            settings.graph(),
                            built.reused(),
                            built.calls(),
                            built.seededFrom(),
                            built.blocks(),
                            graph.nodeCount(),
                            graph.edgeCount(),
                            built.rejected(),
                            graphTokens,
                            documentTokens,
                            built.partial(),
                            documentTokens == 0 ? 0.0 : (double) graphTokens / documentTokens,
                            graph.view(part.text())));
        }
    }

    /**
     * The answer stage: the tool loop over the graph. Before each further round it checks that the round
     * fits the budget before the answer's reserve; when it does not (or a round is refused all the same),
     * or the final reply has nothing usable, the answer is written by the last resort over the graph it
     * has: the passages looked up and the nodes that match the question best, with their spans as citations.
     */
    private StrategyResult answer(QuestionContext context, Settings settings, GraphSet graphs, boolean partial) {
        GraphTools tools = new GraphTools(
                graphs,
                context.llm(),
                store,
                defaults.lookupChars(),
                defaults.maxClusterSize(),
                context.trace(),
                context.documents().getFirst().tenantId());
        // without room for a tool round and the answer after it, the answer is one call over the graph, with no tools
        boolean toolRounds =
                context.llm().budget().stepFits(2) && !context.cancellation().isCancelled();
        if (!toolRounds) {
            context.trace()
                    .record(new StepEvent.BudgetSpent(
                            "tool-rounds", 0, context.llm().budget().whyStepDoesNotFit(2)));
        }
        int[] rounds = {0};
        MindGraphAnswer reply;
        try {
            reply = toolLoop(context, settings, graphs, tools, toolRounds, rounds);
        } catch (RoundsStopped | BudgetExhaustedException stopped) {
            context.trace().record(new StepEvent.BudgetSpent("answer", rounds[0], stopped.getMessage()));
            recordCompaction(context, graphs);
            return lastResort(
                    context, graphs, tools, "the budget ended the tool rounds: " + stopped.getMessage(), true);
        } catch (UnusableReplyException unusable) {
            context.trace().record(new StepEvent.Failed("answer", rounds[0], unusable.getMessage()));
            recordCompaction(context, graphs);
            return lastResort(
                    context, graphs, tools, "the final reply was unusable: " + unusable.getMessage(), partial);
        }
        recordCompaction(context, graphs);
        return fromReply(context, graphs, tools, reply, partial || !toolRounds);
    }

    /**
     * The answerer's tool loop over the graph ({@code toolRounds} false: one call with no tool), every
     * tool call traced and {@code rounds[0]} the last round run; after each round the loop ends unless
     * another fits.
     */
    private static MindGraphAnswer toolLoop(
            QuestionContext context,
            Settings settings,
            GraphSet graphs,
            GraphTools tools,
            boolean toolRounds,
            int[] rounds) {
        Map<String, Object> vars = answerVariables(context.question(), context.choices(), graphs);
        vars.put("abstainRule", AnswerParts.abstainRule(context));
        return (toolRounds ? context.llm() : context.llm().answering())
                .withTools(
                        Role.ANSWERER,
                        TEMPLATE,
                        vars,
                        tools.tools(),
                        toolRounds ? settings.maxRounds() : 0,
                        MindGraphAnswer.class,
                        (round, tool, arguments, result) -> {
                            rounds[0] = round;
                            context.trace().record(MindGraphEvent.Tool.of(round, tool, arguments, result));
                            stopUnlessNextRoundFits(context);
                        },
                        MindGraphAnswer::plainText);
    }

    /** Ends the tool loop after a round when another round would run into the answer's reserve, or time is up. */
    private static void stopUnlessNextRoundFits(QuestionContext context) {
        if (context.cancellation().isCancelled()) {
            throw new RoundsStopped("the question ran out of wall time");
        }
        if (!context.llm().budget().stepFits(1)) {
            throw new RoundsStopped(context.llm().budget().whyStepDoesNotFit(1));
        }
    }

    /** Thrown from the tool observer to end the tool loop before a round the budget cannot afford. */
    private static final class RoundsStopped extends RuntimeException {
        RoundsStopped(String reason) {
            super(reason, null, false, false);
        }
    }

    /** The answer the tool loop gave: its cited nodes (every quote behind each) and the quotes it copied from passages. */
    private static StrategyResult fromReply(
            QuestionContext context, GraphSet graphs, GraphTools tools, MindGraphAnswer reply, boolean partial) {
        List<Citation> citations = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (String id : new LinkedHashSet<>(reply.citedNodes() == null ? List.<String>of() : reply.citedNodes())) {
            GraphSet.Located node = graphs.find(id);
            if (node == null) {
                unknown.add(id);
            } else {
                citations.addAll(nodeCitations(node));
            }
        }
        int quotesDropped = 0;
        int quotesElsewhere = 0;
        for (MindGraphAnswer.Quote quote : reply.quotes() == null ? List.<MindGraphAnswer.Quote>of() : reply.quotes()) {
            if (quote == null || quote.quote() == null) {
                quotesDropped++;
                continue;
            }
            GraphSet.Located named = graphs.find(quote.nodeId());
            Citation found =
                    named == null ? null : quoteIn(named, tools.lookedUp().get(named.qualifiedId()), quote.quote());
            if (found == null) {
                // models often attribute a quote to the wrong node: look in every passage they read before dropping it
                for (Map.Entry<String, Span> read : tools.lookedUp().entrySet()) {
                    found = quoteIn(graphs.find(read.getKey()), read.getValue(), quote.quote());
                    if (found != null) {
                        quotesElsewhere++;
                        break;
                    }
                }
            }
            if (found == null) {
                quotesDropped++;
            } else {
                citations.add(found);
            }
        }
        Integer choice = AnswerParts.validChoice(context, reply.choice());
        String answer = choice != null ? context.choices().get(choice) : reply.answer();
        context.trace()
                .record(new MindGraphEvent.Answer(
                        answer,
                        reply.confidence(),
                        reply.citedNodes() == null ? List.of() : reply.citedNodes(),
                        unknown,
                        List.copyOf(tools.lookedUp().keySet()),
                        quotesDropped,
                        quotesElsewhere,
                        partial));
        return new StrategyResult(
                answer, StrategyResult.GENERATED, citations, reply.confidenceValue(), choice, partial);
    }

    /** Nodes the last resort reads: those sharing most words with the question. */
    static final int LAST_RESORT_NODES = 40;

    /**
     * The last resort over the graph the question has: the passages the tool loop looked up, then the
     * nodes sharing most words with the question (content, with the words of the text behind it), each
     * citing its spans. When the budget refuses even that call, the node looked up last (else the
     * best-matching node) is the answer, with its quotes.
     */
    private static StrategyResult lastResort(
            QuestionContext context, GraphSet graphs, GraphTools tools, String reason, boolean budgetLimited) {
        List<LastResort.Evidence> evidence = new ArrayList<>();
        tools.lookedUp().forEach((id, window) -> {
            GraphSet.Located node = graphs.find(id);
            if (node != null) {
                String text = window.of(node.part().text());
                evidence.add(new LastResort.Evidence(
                        text, Citation.of(node.part().documentId(), window.start(), window.end(), text)));
            }
        });
        List<GraphSet.Located> best = bestNodes(graphs, context.question());
        for (GraphSet.Located node : best) {
            evidence.add(
                    new LastResort.Evidence(nodeText(node), nodeCitations(node).getFirst()));
        }
        try {
            return LastResort.answer(context, reason, evidence, budgetLimited);
        } catch (BudgetExhaustedException spent) {
            context.trace().record(new StepEvent.BudgetSpent("last-resort", spent.getMessage()));
            List<GraphSet.Located> looked = tools.lookedUp().keySet().stream()
                    .map(graphs::find)
                    .filter(java.util.Objects::nonNull)
                    .toList();
            GraphSet.Located node = !looked.isEmpty() ? looked.getLast() : best.isEmpty() ? null : best.getFirst();
            if (node == null) {
                throw spent;
            }
            context.trace().record(new MindGraphEvent.NodeAnswer(node.node().content(), 0.0, node.qualifiedId()));
            return new StrategyResult(
                    node.node().content(), StrategyResult.GENERATED, nodeCitations(node), 0.0, null, true);
        }
    }

    /** The nodes sharing most words with the question (content and quotes), best first; ties in graph order. */
    static List<GraphSet.Located> bestNodes(GraphSet graphs, String question) {
        List<GraphSet.Located> all = new ArrayList<>();
        graphs.union().nodes().forEach(n -> {
            GraphSet.Located located = graphs.find(n.id());
            if (located != null) {
                all.add(located);
            }
        });
        return LastResort.bySharedWords(all, MindGraphStrategy::nodeText, question).stream()
                .limit(LAST_RESORT_NODES)
                .toList();
    }

    /** A node as evidence: its content, and the words of the text it was taken from. */
    private static String nodeText(GraphSet.Located node) {
        StringBuilder out = new StringBuilder(node.node().content().strip());
        for (Span span : spans(node)) {
            if (span.end() <= node.part().text().length()) {
                out.append("\n\"").append(span.of(node.part().text()).strip()).append('"');
            }
        }
        return out.toString();
    }

    /**
     * The paper's compaction: input tokens of the answerer's first call (system prompt, graph, stats,
     * question and tool schemas, as the call log records them) divided by the tokens of the
     * documents, beside the graph-only figure (graph JSON tokens divided by document tokens).
     */
    private static void recordCompaction(QuestionContext context, GraphSet graphs) {
        LlmSession.CallUsage first = context.llm().calls().stream()
                .filter(c -> c.role() == Role.ANSWERER && c.template().startsWith(TEMPLATE))
                .findFirst()
                .orElse(null);
        if (first == null) {
            return;
        }
        int documentTokens = graphs.parts().stream()
                .mapToInt(p -> TokenCounter.count(p.text()))
                .sum();
        int graphTokens = graphs.parts().stream()
                .mapToInt(p -> TokenCounter.count(p.built().graph().compactJson()))
                .sum();
        context.trace()
                .record(new MindGraphEvent.Compaction(
                        graphs.parts().size() == 1 ? graphs.parts().getFirst().documentId() : null,
                        first.promptTokens(),
                        documentTokens,
                        documentTokens == 0 ? 0.0 : (double) first.promptTokens() / documentTokens,
                        graphTokens,
                        documentTokens == 0 ? 0.0 : (double) graphTokens / documentTokens));
    }

    /** The quote's span inside the window lookup_source returned for the node, as a citation; null when it is not there. */
    private static Citation quoteIn(GraphSet.Located node, Span window, String quote) {
        if (node == null || window == null) {
            return null;
        }
        String text = node.part().text();
        return QuoteResolver.resolve(quote, window.of(text), window.start())
                .map(r -> Citation.of(
                        node.part().documentId(),
                        r.span().start(),
                        r.span().end(),
                        r.span().of(text)))
                .orElse(null);
    }

    /** The answer prompt's variables: the graph as JSON with its statistics, the question and any choices. */
    static Map<String, Object> answerVariables(String question, List<String> choiceList, GraphSet graphs) {
        ConceptGraph union = graphs.union();
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("graph", PromptMarkup.of(PromptMarkup.data(union.compactJson())));
        vars.put(
                "stats",
                union.nodeCount() + " nodes, " + union.edgeCount() + " edges, built from " + graphs.blocks()
                        + " chunks");
        vars.put("question", question);
        if (!choiceList.isEmpty()) {
            StringBuilder choices = new StringBuilder("Choices:\n");
            for (int i = 0; i < choiceList.size(); i++) {
                choices.append(i).append(". ").append(choiceList.get(i)).append('\n');
            }
            vars.put("choices", choices.toString());
            vars.put("choiceField", "\n- choice: the number of the best-supported choice (its text is the answer)");
        } else {
            vars.put("choices", "");
            vars.put("choiceField", "");
        }
        return vars;
    }

    /**
     * A node's citations: the quote it was added with, and each quote a later edit_node merged into it,
     * so that every part of its content is backed by the words it came from.
     */
    static List<Citation> nodeCitations(GraphSet.Located node) {
        return spans(node).stream()
                .map(span -> Citation.of(
                        node.part().documentId(),
                        span.start(),
                        span.end(),
                        span.of(node.part().text())))
                .toList();
    }

    private static List<Span> spans(GraphSet.Located node) {
        List<Span> spans = new ArrayList<>();
        spans.add(node.node().span());
        node.node().merged().stream().filter(s -> !spans.contains(s)).forEach(spans::add);
        return spans;
    }
}
