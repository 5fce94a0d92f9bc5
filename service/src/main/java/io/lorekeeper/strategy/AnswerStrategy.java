package io.lorekeeper.strategy;

/**
 * One way of answering a question over stored documents (GAM, ComoRAG, MemCoT, MindGraph, COSMIR,
 * RAG, extractive...). Implementations are Spring beans; the question module finds them by
 * {@link #name()}, refuses those whose {@link #requirements()} cannot be met, and runs
 * {@link #answer} in a background job. {@code auto} routes to it by what it declares: the kinds of
 * question it is good at ({@link #goodAt()}), the calls it needs at least ({@link #minimumCalls(QuestionOptions, java.util.List)}) and the
 * memories it cannot run without ({@link #requiredMemories}).
 *
 * <p>A strategy reads memory only through the context's retriever (and its own persistence),
 * records every intermediate state the method calls memory in the context's trace, and returns
 * citations as spans of the canonical text; the caller verifies them and drops invented quotes.
 */
public interface AnswerStrategy {

    String name();

    StrategyRequirements requirements();

    /** Checks the request's options before the question is accepted; throw an ApiProblem naming {@code options.<name>}. */
    default void validate(QuestionOptions options) {}

    /** The memories this question cannot run without; options may remove some (an ablation without a layer). */
    default java.util.Set<String> requiredMemories(QuestionOptions options) {
        return requirements().memoryStages();
    }

    /** The memories this question uses when they are ready and does without otherwise. */
    default java.util.Set<String> optionalMemories(QuestionOptions options) {
        return requirements().optionalMemories();
    }

    /**
     * How long a question with this strategy may run when its {@code options.budget.maxSeconds} does
     * not say; empty for the service's default. A strategy whose method reads a whole long book (a
     * MindGraph build) needs longer than one that retrieves.
     */
    default java.util.Optional<java.time.Duration> defaultWallTime() {
        return java.util.Optional.empty();
    }

    /**
     * The wall time for this question when its options do not say: by default {@link #defaultWallTime()};
     * a strategy that knows how much work a question has (a walk over every chunk of its documents)
     * scales it with that work.
     */
    default java.util.Optional<java.time.Duration> defaultWallTime(
            QuestionOptions options, java.util.List<io.lorekeeper.document.DocumentInfo> documents) {
        return defaultWallTime();
    }

    /**
     * The kinds of question {@code auto} may pick this strategy for, and at which rank; none by default,
     * so a strategy that declares nothing is answered only when asked for by name.
     */
    default java.util.List<GoodAt> goodAt() {
        return java.util.List.of();
    }

    /**
     * The fewest model calls with which this strategy can give a useful answer, so that {@code auto} does
     * not pick a research loop the budget would stop after its first step: by default one call for a
     * strategy that needs a model and none otherwise.
     */
    default int minimumCalls() {
        return requirements().needsLlm() ? 1 : 0;
    }

    /**
     * The fewest model calls for a question with these options over these documents: by default
     * {@link #minimumCalls()}; a strategy whose calls grow with the text (a reading chunk by chunk) or
     * depend on its options says how.
     */
    default int minimumCalls(QuestionOptions options, java.util.List<io.lorekeeper.document.DocumentInfo> documents) {
        return minimumCalls();
    }

    StrategyResult answer(QuestionContext context);
}
