package io.lorekeeper.auto;

import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.Documents;
import io.lorekeeper.document.MemoryState;
import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.strategy.AnswerStrategy;
import io.lorekeeper.strategy.Aptitude;
import io.lorekeeper.strategy.LastResort;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.strategy.StepEvent;
import io.lorekeeper.strategy.Strategies;
import io.lorekeeper.strategy.StrategyRequirements;
import io.lorekeeper.strategy.StrategyResult;

/**
 * Picks one of the deployed strategies for each question ({@link Routes} has the rules) from what
 * is known before any model call: whether an LLM is configured, the documents' kind and size, which
 * of their memories are ready, the question's wording and choices, and its budget. It never picks
 * a strategy that cannot run on these documents now, so it never waits for a memory; it runs
 * without an LLM (then it answers extractively). The pick, the rule and the reasons are traced as
 * an {@code auto} event, and the picked strategy's own trace follows.
 *
 * <p>When the picked strategy stops without an answer, {@link LastResort} answers from the question's
 * best passages.
 *
 * <p>Options: {@code budget}, {@code abstain} and {@code buildMemories} (passed on to the picked
 * strategy), and per strategy an object of that strategy's options used when it is
 * picked ({@code {"<strategy>": {"<option>": …}}}).
 */
@Component
class AutoStrategy implements AnswerStrategy, SmartInitializingSingleton {

    static final String NAME = "auto";

    private final ObjectProvider<Strategies> strategies;
    private final Documents documents;
    private final LlmGateway gateway;
    private volatile Routes routes;

    AutoStrategy(ObjectProvider<Strategies> strategies, Documents documents, LlmGateway gateway) {
        this.strategies = strategies;
        this.documents = documents;
        this.gateway = gateway;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public StrategyRequirements requirements() {
        return StrategyRequirements.of(
                false,
                "auto: picks a strategy per question from the LLM, the documents' size and kind, their ready memories, the question and its budget");
    }

    @Override
    public void validate(QuestionOptions options) {
        Map<String, AnswerStrategy> others = others();
        options.allowOnly(others.keySet());
        others.forEach((name, strategy) -> {
            if (options.has(name)) {
                strategy.validate(options.nested(name));
            }
        });
    }

    /**
     * On a long text auto may pick a strategy that reads the whole text, one chunk per call: the longest
     * wall time one of the strategies declared for a long text's whole story would ask for, so that such a
     * pick is not cut off by the service's default. Shorter texts keep the service's default.
     */
    @Override
    public Optional<Duration> defaultWallTime(QuestionOptions options, List<DocumentInfo> docs) {
        long tokens = docs.stream().mapToLong(DocumentInfo::tokenCount).sum();
        if (tokens <= Situation.LONG_TEXT_TOKENS) {
            return Optional.empty();
        }
        Map<String, AnswerStrategy> others = others();
        return routes().candidates(Aptitude.LONG_TEXT_WHOLE_STORY).stream()
                .flatMap(candidate -> wallTime(others.get(candidate.strategy()), candidate, options, docs).stream())
                .max(Comparator.naturalOrder());
    }

    private static Optional<Duration> wallTime(
            AnswerStrategy strategy, Candidate candidate, QuestionOptions asked, List<DocumentInfo> docs) {
        try {
            return strategy.defaultWallTime(new QuestionOptions(options(candidate, asked)), docs);
        } catch (RuntimeException refused) {
            return Optional.empty(); // its options do not fit it; it will not be the pick's limit either
        }
    }

    /**
     * The routes over the deployed strategies, checked when the application has started: a declaration
     * auto cannot follow stops the start with the reason ({@link Routes#over}).
     */
    @Override
    public void afterSingletonsInstantiated() {
        routes = Routes.over(others().values());
    }

    private Routes routes() {
        Routes built = routes;
        if (built == null) {
            built = Routes.over(others().values());
            routes = built;
        }
        return built;
    }

    @Override
    public StrategyResult answer(QuestionContext context) {
        Map<String, AnswerStrategy> others = others();
        Situation situation = situation(context);
        Choice choice = routes().choose(situation, candidate -> fitness(candidate, context, situation, others));
        Map<String, Object> options = options(choice.candidate(), context.options());
        context.trace().record(AutoEvent.Route.of(choice, options, situation));
        QuestionContext delegated = new QuestionContext(
                context.questionId(),
                context.question(),
                context.choices(),
                new QuestionOptions(options),
                context.documents(),
                context.retriever(),
                context.llm(),
                context.trace(),
                context.cancellation());
        try {
            StrategyResult answer = others.get(choice.candidate().strategy()).answer(delegated);
            // without a model the answer is a quote or the passages to read: the asker is told why
            return situation.llm()
                    ? answer
                    : answer.answeredInstead(
                            NAME,
                            choice.candidate().strategy(),
                            String.join("; ", choice.reasons())
                                    + ": answered without a model, with a short answer only where the source is"
                                    + " clear enough, else the passages most likely to hold it");
        } catch (BudgetExhaustedException | UnusableReplyException stopped) {
            return afterStop(context, choice.candidate().strategy(), stopped);
        }
    }

    /**
     * The picked strategy stopped without an answer (its budget, or an unusable reply its own steps did
     * not absorb): the last resort answers from the question's best passages, with what is left of the
     * budget for the answer. If that fails too, the question module answers without a model.
     */
    private static StrategyResult afterStop(QuestionContext context, String picked, RuntimeException stopped) {
        context.trace()
                .record(new StepEvent.Failed(
                        picked,
                        stopped.getMessage() == null ? stopped.getClass().getSimpleName() : stopped.getMessage()));
        return LastResort.answer(
                context,
                picked + " stopped without an answer: " + stopped.getMessage(),
                List.of(),
                stopped instanceof BudgetExhaustedException);
    }

    private Situation situation(QuestionContext context) {
        List<DocumentInfo> docs = context.documents();
        // a configured endpoint that a run of failed calls (or the probe at start) found down counts as none
        boolean reachable = gateway.isReachable(Role.ANSWERER);
        return new Situation(
                reachable,
                docs.stream().allMatch(d -> d.kind() == DocumentKind.CONVERSATION),
                docs.stream().mapToLong(DocumentInfo::tokenCount).sum(),
                docs.stream().mapToInt(DocumentInfo::chunkCount).sum(),
                QuestionForm.of(context.question(), context.isMultipleChoice()),
                context.llm().budget().maxCalls(),
                context.llm().budget().maxTokens(),
                gateway.isConfigured() && !reachable ? gateway.endpointStatus().detail() : null);
    }

    /** Why the candidate cannot answer this question here and now, if it cannot. */
    private Optional<String> fitness(
            Candidate candidate, QuestionContext context, Situation situation, Map<String, AnswerStrategy> others) {
        AnswerStrategy strategy = others.get(candidate.strategy());
        if (strategy == null) {
            return Optional.of("not deployed here");
        }
        if (!strategies.getObject().isAvailable(strategy)) {
            return Optional.of("needs an LLM, and none is configured");
        }
        QuestionOptions options = new QuestionOptions(options(candidate, context.options()));
        Set<String> needed = new HashSet<>(strategy.requiredMemories(options));
        List<MemoryState> missing = documents.memories(context.documentIds(), needed).stream()
                .filter(m -> !m.ready())
                .toList();
        if (!missing.isEmpty()) {
            return Optional.of(missing.stream()
                    .map(m -> "needs the '" + m.stage() + "' memory, which is " + m.status() + " for document "
                            + m.documentId())
                    .distinct()
                    .collect(Collectors.joining("; ")));
        }
        int calls = strategy.minimumCalls(options, context.documents());
        if (calls > situation.maxCalls()) {
            return Optional.of("needs at least " + calls + " calls; the budget allows " + situation.maxCalls());
        }
        return Optional.empty();
    }

    /** Options every strategy accepts, passed on to the picked one as the question gave them. */
    private static final List<String> PASSED_ON =
            List.of(QuestionOptions.BUDGET, QuestionOptions.ABSTAIN, QuestionOptions.BUILD_MEMORIES);

    /**
     * The candidate's own options, then the question's options for that strategy, and the question's
     * budget, {@code abstain} and {@code buildMemories}.
     */
    private static Map<String, Object> options(Candidate candidate, QuestionOptions asked) {
        Map<String, Object> options = new LinkedHashMap<>(candidate.options());
        options.putAll(asked.nested(candidate.strategy()).asMap());
        for (String name : PASSED_ON) {
            if (asked.has(name)) {
                options.put(name, asked.asMap().get(name));
            }
        }
        return options;
    }

    private Map<String, AnswerStrategy> others() {
        return strategies.getObject().all().stream()
                .filter(s -> !s.name().equals(NAME))
                .collect(Collectors.toMap(AnswerStrategy::name, s -> s, (a, b) -> a, LinkedHashMap::new));
    }
}
