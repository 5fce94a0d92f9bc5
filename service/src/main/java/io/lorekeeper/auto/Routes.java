package io.lorekeeper.auto;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.lorekeeper.strategy.AnswerStrategy;
import io.lorekeeper.strategy.Aptitude;
import io.lorekeeper.strategy.GoodAt;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.strategy.Strategies;

/**
 * auto's rules, in order; the first that applies names the kind of question ({@link Aptitude}), and
 * the strategies that declared that kind ({@link AnswerStrategy#goodAt()}) are tried by their rank: the
 * first that can run here is picked. A candidate cannot run when its strategy is not deployed, needs an
 * LLM that is not configured, needs a memory the documents do not have ready, or needs more calls than
 * the budget allows ({@link Fitness}). When none of them can run, the one-call strategies and then
 * {@link Strategies#DEFAULT} (which always can) are tried.
 *
 * <ol>
 * <li>no LLM: the default strategy, which needs none;</li>
 * <li>a budget of fewer than 3 calls or 20,000 tokens: {@link Aptitude#ONE_CALL};</li>
 * <li>a text of at most 8 chunks, which one retrieval shows whole: {@link Aptitude#ONE_CALL};</li>
 * <li>a conversation history and a question about time, or one that joins facts:
 * {@link Aptitude#CONVERSATION_REASONING};</li>
 * <li>a long text (over 64,000 tokens) and a multiple-choice question or one about the whole text:
 * {@link Aptitude#LONG_TEXT_WHOLE_STORY};</li>
 * <li>a shorter text and a question about the whole text: {@link Aptitude#TEXT_WHOLE_STORY};</li>
 * <li>a question that joins facts: {@link Aptitude#JOINED_FACTS};</li>
 * <li>otherwise (one fact to find): {@link Aptitude#ONE_CALL}.</li>
 * </ol>
 */
final class Routes {

    /** Why a candidate cannot run here, or empty when it can. */
    @FunctionalInterface
    interface Fitness {
        Optional<String> unfit(Candidate candidate);
    }

    private static final Candidate LAST = Candidate.of(Strategies.DEFAULT);

    private final Map<Aptitude, List<Candidate>> byAptitude;

    private Routes(Map<Aptitude, List<Candidate>> byAptitude) {
        this.byAptitude = byAptitude;
    }

    /**
     * The routes over the deployed strategies (auto itself left out), checked once at start-up so that a
     * declaration auto cannot follow stops the service with the reason, not a question later: the default
     * strategy must be deployed and able to run anywhere (no LLM, no memory, no call), no two strategies
     * may declare one aptitude at one rank, and each declared set of options must be accepted by its
     * strategy.
     */
    static Routes over(Collection<AnswerStrategy> strategies) {
        AnswerStrategy last = strategies.stream()
                .filter(s -> s.name().equals(Strategies.DEFAULT))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(
                        "auto falls back to the default strategy '" + Strategies.DEFAULT + "', which is not deployed"));
        QuestionOptions none = QuestionOptions.none();
        if (last.requirements().needsLlm()
                || !last.requiredMemories(none).isEmpty()
                || last.minimumCalls(none, List.of()) > 0) {
            throw new IllegalStateException("auto falls back to the default strategy '" + Strategies.DEFAULT
                    + "', which must run without an LLM, a memory or a model call");
        }
        Map<String, List<GoodAt>> declared = new LinkedHashMap<>();
        for (AnswerStrategy strategy : strategies) {
            for (GoodAt goodAt : strategy.goodAt()) {
                if (!goodAt.options().isEmpty()) {
                    accepts(strategy, goodAt);
                }
            }
            declared.put(strategy.name(), strategy.goodAt());
        }
        return of(declared);
    }

    private static void accepts(AnswerStrategy strategy, GoodAt goodAt) {
        try {
            strategy.validate(new QuestionOptions(goodAt.options()));
        } catch (RuntimeException refused) {
            throw new IllegalStateException(
                    "strategy '" + strategy.name() + "' declares it is good at " + goodAt.aptitude() + " with options "
                            + goodAt.options() + ", which it refuses: " + refused.getMessage(),
                    refused);
        }
    }

    /** The routes over these declarations, by strategy name; two at one aptitude and rank are refused. */
    static Routes of(Map<String, List<GoodAt>> declared) {
        record Ranked(int rank, Candidate candidate) {}
        Map<Aptitude, List<Ranked>> ranked = new EnumMap<>(Aptitude.class);
        declared.forEach((name, goodAts) -> {
            for (GoodAt goodAt : goodAts) {
                List<Ranked> taken = ranked.computeIfAbsent(goodAt.aptitude(), a -> new ArrayList<>());
                taken.stream()
                        .filter(r -> r.rank() == goodAt.rank()
                                && !r.candidate().strategy().equals(name))
                        .findFirst()
                        .ifPresent(r -> {
                            throw new IllegalStateException(
                                    "strategies '" + r.candidate().strategy() + "' and '"
                                            + name + "' both declare " + goodAt.aptitude() + " at rank " + goodAt.rank()
                                            + ": auto cannot tell which to try first; give one of them another rank");
                        });
                taken.add(new Ranked(goodAt.rank(), new Candidate(name, goodAt.options())));
            }
        });
        Map<Aptitude, List<Candidate>> byAptitude = new EnumMap<>(Aptitude.class);
        ranked.forEach((aptitude, list) -> byAptitude.put(
                aptitude,
                list.stream()
                        .sorted(Comparator.comparingInt(Ranked::rank))
                        .map(Ranked::candidate)
                        .toList()));
        return new Routes(byAptitude);
    }

    /** The strategies declared for this aptitude, in the order auto tries them. */
    List<Candidate> candidates(Aptitude aptitude) {
        return byAptitude.getOrDefault(aptitude, List.of());
    }

    Choice choose(Situation s, Fitness fitness) {
        Rule rule = rule(s);
        List<Candidate> candidates =
                new ArrayList<>(rule.aptitude() == null ? List.of(LAST) : candidates(rule.aptitude()));
        List<Candidate> fallbacks = new ArrayList<>(candidates(Aptitude.ONE_CALL));
        fallbacks.add(LAST);
        for (Candidate fallback : fallbacks) {
            if (!candidates.contains(fallback)) {
                candidates.add(fallback);
            }
        }
        List<Map<String, String>> considered = new ArrayList<>();
        for (Candidate candidate : candidates) {
            // the default is never asked: it always runs, so a question always has an answer
            Optional<String> unfit = candidate.equals(LAST) ? Optional.empty() : fitness.unfit(candidate);
            Map<String, String> verdict = new LinkedHashMap<>();
            verdict.put("strategy", candidate.label());
            verdict.put("verdict", unfit.orElse("chosen"));
            considered.add(verdict);
            if (unfit.isEmpty()) {
                return new Choice(candidate, rule.name(), rule.reasons(), considered);
            }
        }
        throw new IllegalStateException(Strategies.DEFAULT + " can always run");
    }

    /** @param aptitude the kind of question whose strategies are tried; null for the default alone */
    private record Rule(String name, List<String> reasons, Aptitude aptitude) {}

    private static Rule rule(Situation s) {
        QuestionForm q = s.form();
        if (!s.llm()) {
            return new Rule(
                    "no-llm",
                    List.of(
                            s.llmDown() == null
                                    ? "no LLM is configured"
                                    : "the model endpoint does not answer (" + s.llmDown() + ")"),
                    null);
        }
        if (s.maxCalls() < Situation.FEW_CALLS || s.maxTokens() < Situation.FEW_TOKENS) {
            return new Rule(
                    "small-budget",
                    List.of("the budget allows " + s.maxCalls() + " calls and " + s.maxTokens()
                            + " tokens: room for one answer call, not a research loop"),
                    Aptitude.ONE_CALL);
        }
        if (s.chunks() <= Situation.WHOLE_TEXT_CHUNKS) {
            return new Rule(
                    "whole-text-fits",
                    List.of("the documents are " + s.chunks() + " chunks: one retrieval shows all of them"),
                    Aptitude.ONE_CALL);
        }
        if (s.conversation() && (q.temporal() || q.multiHop())) {
            return new Rule(
                    "conversation-reasoning",
                    List.of(
                            "the documents are conversation histories",
                            q.temporal() ? "the question asks about time" : "the question joins several facts"),
                    Aptitude.CONVERSATION_REASONING);
        }
        if (s.longText() && (q.multipleChoice() || q.global())) {
            return new Rule(
                    "long-text-whole-story",
                    List.of(
                            "the documents are " + s.tokens() + " tokens, over " + Situation.LONG_TEXT_TOKENS,
                            q.multipleChoice()
                                    ? "the question is multiple choice"
                                    : "the question is about the text as a whole"),
                    Aptitude.LONG_TEXT_WHOLE_STORY);
        }
        if (!s.longText() && q.global()) {
            return new Rule(
                    "text-whole-story",
                    List.of("the documents are " + s.tokens() + " tokens", "the question is about the text as a whole"),
                    Aptitude.TEXT_WHOLE_STORY);
        }
        if (q.multiHop()) {
            return new Rule("multi-hop", List.of("the question joins several facts"), Aptitude.JOINED_FACTS);
        }
        return new Rule("single-fact", List.of("the question asks for one fact"), Aptitude.ONE_CALL);
    }
}
