package io.lorekeeper.reasoning.cosmir;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.Documents;
import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.reasoning.AnswerParts;
import io.lorekeeper.reasoning.AnswerStrategy;
import io.lorekeeper.reasoning.ChunkedReading;
import io.lorekeeper.reasoning.Citation;
import io.lorekeeper.reasoning.QuestionContext;
import io.lorekeeper.reasoning.QuestionOptions;
import io.lorekeeper.reasoning.StrategyRequirements;
import io.lorekeeper.reasoning.StrategyResult;
import io.lorekeeper.text.TokenCounter;

/**
 * COSMIR (seed 000, Algorithm 1): the planner turns the question into open questions; the
 * documents are read in order in {@code chunkTokens}-token chunks, each by a worker running the
 * fixed micro-cycle extract → prune → infer → refine on the structured memory ⟨Q, F_g, F_i, a⟩;
 * the manager answers from the memory and names the facts it rests on, whose spans become the
 * citations. 1 + 3 × chunks + 1 calls.
 *
 * <p>Before each chunk the strategy checks that the budget still affords the chunk's three calls
 * and the manager's; when it does not, it stops reading and the manager answers from the memory
 * so far ({@code budgetLimited}).
 */
@Component
class CosmirStrategy implements AnswerStrategy {

    private final Documents documents;
    private final LlmGateway gateway;

    CosmirStrategy(Documents documents, LlmGateway gateway) {
        this.documents = documents;
        this.gateway = gateway;
    }

    @Override
    public String name() {
        return "cosmir";
    }

    @Override
    public StrategyRequirements requirements() {
        return new StrategyRequirements(
                true,
                Set.of(),
                "COSMIR: planner questions, extract-infer-refine over the text in 64K-token chunks into a structured memory, manager answer");
    }

    @Override
    public void validate(QuestionOptions options) {
        settings(options);
    }

    private CosmirSettings settings(QuestionOptions options) {
        return CosmirSettings.of(options, gateway.contextLimit(Role.RESEARCHER));
    }

    @Override
    public StrategyResult answer(QuestionContext context) {
        CosmirSettings settings = settings(context.options());
        List<ChunkedReading.Chunk> chunks = ChunkedReading.of(context.documents(), documents, settings.chunkTokens());
        Map<String, Object> reading = new LinkedHashMap<>();
        reading.put("documents", context.documents().size());
        reading.put("chunks", chunks.size());
        reading.put("chunkTokens", settings.chunkTokens());
        reading.put("chunkLowered", settings.chunkLowered());
        reading.put("capTokens", settings.memoryTokens());
        reading.put("choicesInQuery", settings.choicesInQuery());
        reading.put("expectedCalls", 2 + 3 * chunks.size());
        context.trace().record("reading", reading);

        Memory memory = new Memory();
        String query = settings.choicesInQuery() ? AnswerParts.questionWithChoices(context) : context.question();
        Worker worker = new Worker(
                context.llm(),
                context.trace(),
                memory,
                query,
                settings.memoryTokens(),
                context.documents().size());
        boolean limited = false;
        int read = 0;
        try {
            worker.plan();
            for (ChunkedReading.Chunk chunk : chunks) {
                context.cancellation().throwIfCancelled();
                long cycle =
                        TokenCounter.count(chunk.text()) + 4L * (memory.tokens() + ChunkedReading.PROMPT_ALLOWANCE);
                if (!context.llm().budget().affords(4, cycle)) {
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
                                            "the budget left would not cover this chunk's three calls and the manager's"));
                    break;
                }
                worker.read(chunk);
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
        return manage(context, memory, limited);
    }

    /** MANAGER: the answer from the memory; citations are the spans of the facts it names. */
    private StrategyResult manage(QuestionContext context, Memory memory, boolean limited) {
        Map<String, Object> vars = new LinkedHashMap<>(AnswerParts.choiceVariables(context));
        vars.put("question", context.question());
        vars.put("memory", memory.render());
        Replies.Managed reply;
        try {
            reply = context.llm()
                    .structuredOrText(Role.ANSWERER, "cosmir/manage", vars, Replies.Managed.class, PlainText::managed);
        } catch (BudgetExhaustedException spent) {
            context.trace().record("budget", Map.of("phase", "manage", "reason", spent.getMessage()));
            return withoutManager(context, memory, true);
        } catch (UnusableReplyException unusable) {
            context.trace().record("step.failed", Map.of("step", "manage", "reason", unusable.getMessage()));
            return withoutManager(context, memory, limited);
        }
        List<Citation> citations = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        List<String> uncitable = new ArrayList<>();
        for (String raw : new LinkedHashSet<>(reply.citedFacts() == null ? List.<String>of() : reply.citedFacts())) {
            String id = Worker.factId(raw);
            if (!memory.holds(id)) {
                unknown.add(raw);
                continue;
            }
            List<Fact> grounds = memory.groundsOf(id).stream()
                    .filter(f -> f.evidence() != null)
                    .toList();
            if (grounds.isEmpty()) {
                uncitable.add(id);
            }
            grounds.forEach(f -> citations.add(citation(f)));
        }
        Integer choice = AnswerParts.validChoice(context, reply.choice());
        String answer = choice != null ? context.choices().get(choice) : reply.answer();
        memory.setAnswer(answer);
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("answer", answer);
        event.put("rationale", reply.rationale() == null ? "" : reply.rationale());
        event.put("confidence", reply.confidence());
        event.put("citedFacts", reply.citedFacts() == null ? List.of() : reply.citedFacts());
        event.put("unknownFacts", unknown);
        event.put("uncitableFacts", uncitable);
        event.put("memory", memory.snapshot());
        context.trace().record("manage", event);
        return new StrategyResult(answer, StrategyResult.GENERATED, citations, reply.confidence(), choice, limited);
    }

    /**
     * The best answer the memory holds when the manager cannot speak: the newest inferred fact (the
     * workers' latest conclusion about the question), else the newest gathered fact that can be
     * cited, with the spans it rests on; confidence 0. Nothing is made up: an empty memory gives an
     * empty answer.
     */
    private static StrategyResult withoutManager(QuestionContext context, Memory memory, boolean limited) {
        List<Fact> candidates = new ArrayList<>(memory.inferred().reversed());
        memory.gathered().reversed().stream().filter(f -> f.evidence() != null).forEach(candidates::add);
        Fact best = candidates.isEmpty() ? null : candidates.getFirst();
        String answer = best == null ? "" : best.text();
        List<Citation> citations = best == null
                ? List.of()
                : memory.groundsOf(best.id()).stream()
                        .filter(f -> f.evidence() != null)
                        .map(CosmirStrategy::citation)
                        .toList();
        memory.setAnswer(answer);
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("answer", answer);
        event.put("fromFact", best == null ? "" : best.id());
        event.put("memory", memory.snapshot());
        context.trace().record("manage.skipped", event);
        return new StrategyResult(answer, StrategyResult.GENERATED, citations, 0.0, null, limited);
    }

    private static Citation citation(Fact fact) {
        Fact.Evidence e = fact.evidence();
        return Citation.of(e.documentId(), e.span().start(), e.span().end(), e.source());
    }
}
