package io.lorekeeper.cosmir;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.Documents;
import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.strategy.AnswerParts;
import io.lorekeeper.strategy.Aptitude;
import io.lorekeeper.strategy.BudgetGate;
import io.lorekeeper.strategy.ChunkedReading;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.GoodAt;
import io.lorekeeper.strategy.LastResort;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.strategy.SettingsStrategy;
import io.lorekeeper.strategy.StepEvent;
import io.lorekeeper.strategy.StrategyRequirements;
import io.lorekeeper.strategy.StrategyResult;
import io.lorekeeper.text.TokenCounter;

/**
 * COSMIR (seed 000, Algorithm 1): the planner turns the question into open questions; the
 * documents are read in order in {@code chunkTokens}-token chunks, each by a worker running the
 * fixed micro-cycle extract → prune → infer → refine on the structured memory ⟨Q, F_g, F_i, a⟩;
 * the manager answers from the memory and names the facts it rests on, whose spans become the
 * citations. 1 + 3 × chunks + 1 calls.
 *
 * <p>Before the planner and each chunk the strategy checks that the step's calls fit before the part
 * of the budget kept for the answer; when they do not, it stops reading and the manager answers from
 * the memory so far ({@code budgetLimited}). A step whose reply is unusable or cut changes nothing
 * ({@code step.failed}); when the manager's is, {@link LastResort} answers from the gathered facts.
 */
@Component
class CosmirStrategy extends SettingsStrategy<CosmirSettings> {

    private final Documents documents;
    private final LlmGateway gateway;

    CosmirStrategy(Documents documents, LlmGateway gateway) {
        super(
                "cosmir",
                StrategyRequirements.of(
                        true,
                        "COSMIR: planner questions, extract-infer-refine over the text in 64K-token chunks into a structured memory, manager answer"),
                options -> CosmirSettings.of(options, gateway.contextLimit(Role.RESEARCHER)));
        this.documents = documents;
        this.gateway = gateway;
    }

    /** The reading's wall time ({@link ChunkedReading#wallTime}): the planner, three calls per chunk, the manager. */
    @Override
    public Optional<Duration> defaultWallTime(QuestionOptions options, List<DocumentInfo> documents) {
        int chunks = ChunkedReading.expectedChunks(documents, settings(options).chunkTokens());
        return ChunkedReading.wallTime(2L + 3L * chunks);
    }

    @Override
    public List<GoodAt> goodAt() {
        return List.of(GoodAt.of(Aptitude.LONG_TEXT_WHOLE_STORY, 40));
    }

    /** It reads the whole text: the planner, extract, infer and refine per chunk, and the manager. */
    @Override
    public int minimumCalls(QuestionOptions options, List<DocumentInfo> documents) {
        return 2
                + 3 * ChunkedReading.expectedChunks(documents, settings(options).chunkTokens());
    }

    @Override
    protected StrategyResult answer(QuestionContext context, CosmirSettings settings) {
        List<ChunkedReading.Chunk> chunks = ChunkedReading.of(context.documents(), documents, settings.chunkTokens());
        recordReading(context, settings, chunks);
        Memory memory = new Memory();
        String query = settings.choicesInQuery() ? AnswerParts.questionWithChoices(context) : context.question();
        Worker worker = new Worker(
                context.llm(),
                context.trace(),
                memory,
                query,
                settings,
                context.documents().size());
        boolean limited = read(context, worker, memory, chunks);
        return manage(context, memory, limited);
    }

    private static void recordReading(
            QuestionContext context, CosmirSettings settings, List<ChunkedReading.Chunk> chunks) {
        context.trace()
                .record(new CosmirEvent.Reading(
                        context.documents().size(),
                        chunks.size(),
                        settings.chunkTokens(),
                        settings.chunkLowered(),
                        settings.memoryTokens(),
                        settings.extractTokens(),
                        settings.extractLowered(),
                        settings.capInferred(),
                        settings.maxQuestions() == 0 ? null : settings.maxQuestions(),
                        settings.choicesInQuery(),
                        2 + 3 * chunks.size()));
    }

    /**
     * PLANNER, then one worker micro-cycle per chunk, each started only when its calls fit before the
     * answer's reserve (and the question is not cancelled). Returns whether the budget cut the reading short.
     */
    private static boolean read(
            QuestionContext context, Worker worker, Memory memory, List<ChunkedReading.Chunk> chunks) {
        int read = 0;
        try {
            BudgetGate gate = BudgetGate.of(context);
            if (!gate.mayStart("plan", null, 1)) {
                return true;
            }
            worker.plan();
            for (ChunkedReading.Chunk chunk : chunks) {
                long cycle =
                        TokenCounter.count(chunk.text()) + 3L * (memory.tokens() + ChunkedReading.PROMPT_ALLOWANCE);
                if (gate.stop("reading", read + 1, Worker.CALLS_PER_CHUNK, cycle)
                        .isPresent()) {
                    return true;
                }
                worker.read(chunk);
                read++;
            }
            return false;
        } catch (BudgetExhaustedException spent) {
            return stopped(context, "reading", read + 1, spent.getMessage());
        }
    }

    /** Records why the reading stopped before {@code step}, at chunk {@code next} (its round) when reading. */
    private static boolean stopped(QuestionContext context, String step, Integer next, String reason) {
        context.trace().record(new StepEvent.BudgetSpent(step, next, reason));
        return true;
    }

    /**
     * MANAGER: the answer from the memory; citations are the spans of the facts it names. When its reply
     * is unusable (or cut with nothing complete), the last resort answers from the facts gathered.
     */
    private StrategyResult manage(QuestionContext context, Memory memory, boolean limited) {
        Map<String, Object> vars = new LinkedHashMap<>(AnswerParts.choiceVariables(context));
        vars.put("question", context.question());
        vars.put("memory", memory.render());
        vars.put("abstainRule", AnswerParts.abstainRule(context));
        Replies.Managed reply;
        try {
            reply = context.llm()
                    .answering()
                    .structuredOrText(Role.ANSWERER, "cosmir/manage", vars, Replies.Managed.class, PlainText::managed);
        } catch (UnusableReplyException unusable) {
            context.trace().record(new StepEvent.Failed("manage", unusable.getMessage()));
            return lastResort(context, memory, "the manager's reply was unusable: " + unusable.getMessage(), limited);
        }
        return managed(context, memory, reply, limited);
    }

    private static StrategyResult managed(
            QuestionContext context, Memory memory, Replies.Managed reply, boolean limited) {
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
        context.trace()
                .record(new CosmirEvent.Manage(
                        answer,
                        reply.rationale() == null ? "" : reply.rationale(),
                        reply.confidence(),
                        reply.citedFacts() == null ? List.of() : reply.citedFacts(),
                        unknown,
                        uncitable,
                        memory.snapshot()));
        return new StrategyResult(answer, StrategyResult.GENERATED, citations, reply.confidence(), choice, limited);
    }

    /**
     * The answer when the manager cannot give one: one plain call over the memory's facts, the newest
     * inferred first (the workers' latest conclusions), then the gathered facts with the quotes they
     * were taken from as citations.
     */
    private static StrategyResult lastResort(QuestionContext context, Memory memory, String reason, boolean limited) {
        List<LastResort.Evidence> evidence = new ArrayList<>();
        memory.inferred().reversed().forEach(f -> evidence.add(LastResort.Evidence.note(f.text())));
        for (Fact fact : memory.gathered().reversed()) {
            evidence.add(
                    fact.evidence() == null
                            ? LastResort.Evidence.note(fact.text())
                            : new LastResort.Evidence(
                                    fact.text() + "\n\"" + fact.evidence().source() + "\"", citation(fact)));
        }
        StrategyResult result = LastResort.answer(context, reason, evidence, limited);
        memory.setAnswer(result.answer());
        return result;
    }

    private static Citation citation(Fact fact) {
        Fact.Evidence e = fact.evidence();
        return Citation.of(e.documentId(), e.span().start(), e.span().end(), e.source());
    }
}
