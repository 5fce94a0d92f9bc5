package io.lorekeeper.auto;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * auto's rules, in order; the first that applies gives an ordered list of candidates, and the
 * first candidate that can run here is picked. A candidate cannot run when its strategy is not
 * deployed, needs an LLM that is not configured, needs a memory the documents do not have ready,
 * or needs more calls than the budget allows ({@link Fitness}). When none of a rule's candidates
 * can run, {@code rag} and then {@code extractive} (which always can) are tried.
 *
 * <ol>
 * <li>no LLM: {@code extractive};</li>
 * <li>a budget of fewer than 3 calls or 20,000 tokens: {@code rag}, one call;</li>
 * <li>a text of at most 8 chunks: {@code rag}, whose one retrieval shows all of it;</li>
 * <li>a conversation history and a question about time, or one that joins facts: GAM (its
 * integration dates facts by their sessions, and its rounds follow up what is missing), else MemCoT;</li>
 * <li>a long text (over 64,000 tokens) and a multiple-choice question or one about the whole text:
 * ComoRAG, MindGraph over the shared graph, GAM, COSMIR;</li>
 * <li>a shorter text and a question about the whole text: MindGraph (a question-aware build of a few
 * blocks), GAM;</li>
 * <li>a question that joins facts: GAM, MemCoT;</li>
 * <li>otherwise (one fact to find): {@code rag}.</li>
 * </ol>
 */
final class Routes {

    /** Why a candidate cannot run here, or empty when it can. */
    @FunctionalInterface
    interface Fitness {
        Optional<String> unfit(Candidate candidate);
    }

    private Routes() {}

    static Choice choose(Situation s, Fitness fitness) {
        Rule rule = rule(s);
        List<Candidate> candidates = new ArrayList<>(rule.candidates());
        for (String fallback : List.of("rag", "extractive")) {
            if (candidates.stream()
                    .noneMatch(c -> c.strategy().equals(fallback) && c.options().isEmpty())) {
                candidates.add(Candidate.of(fallback));
            }
        }
        List<Map<String, String>> considered = new ArrayList<>();
        for (Candidate candidate : candidates) {
            Optional<String> unfit =
                    candidate.strategy().equals("extractive") ? Optional.empty() : fitness.unfit(candidate);
            Map<String, String> verdict = new LinkedHashMap<>();
            verdict.put("strategy", candidate.label());
            verdict.put("verdict", unfit.orElse("chosen"));
            considered.add(verdict);
            if (unfit.isEmpty()) {
                return new Choice(candidate, rule.name(), rule.reasons(), considered);
            }
        }
        throw new IllegalStateException("extractive can always run");
    }

    private record Rule(String name, List<String> reasons, List<Candidate> candidates) {}

    private static Rule rule(Situation s) {
        QuestionForm q = s.form();
        if (!s.llm()) {
            return new Rule(
                    "no-llm",
                    List.of(
                            s.llmDown() == null
                                    ? "no LLM is configured"
                                    : "the model endpoint does not answer (" + s.llmDown() + ")"),
                    List.of(Candidate.of("extractive")));
        }
        if (s.maxCalls() < Situation.FEW_CALLS || s.maxTokens() < Situation.FEW_TOKENS) {
            return new Rule(
                    "small-budget",
                    List.of("the budget allows " + s.maxCalls() + " calls and " + s.maxTokens()
                            + " tokens: room for one answer call, not a research loop"),
                    List.of(Candidate.of("rag")));
        }
        if (s.chunks() <= Situation.WHOLE_TEXT_CHUNKS) {
            return new Rule(
                    "whole-text-fits",
                    List.of("the documents are " + s.chunks() + " chunks: one retrieval shows all of them"),
                    List.of(Candidate.of("rag")));
        }
        if (s.conversation() && (q.temporal() || q.multiHop())) {
            return new Rule(
                    "conversation-reasoning",
                    List.of(
                            "the documents are conversation histories",
                            q.temporal() ? "the question asks about time" : "the question joins several facts"),
                    List.of(Candidate.of("gam"), Candidate.of("memcot")));
        }
        if (s.longText() && (q.multipleChoice() || q.global())) {
            return new Rule(
                    "long-text-whole-story",
                    List.of(
                            "the documents are " + s.tokens() + " tokens, over " + Situation.LONG_TEXT_TOKENS,
                            q.multipleChoice()
                                    ? "the question is multiple choice"
                                    : "the question is about the text as a whole"),
                    List.of(
                            Candidate.of("comorag"),
                            new Candidate("mindgraph", Map.of("graph", "shared")),
                            Candidate.of("gam"),
                            Candidate.of("cosmir")));
        }
        if (!s.longText() && q.global()) {
            return new Rule(
                    "text-whole-story",
                    List.of("the documents are " + s.tokens() + " tokens", "the question is about the text as a whole"),
                    List.of(Candidate.of("mindgraph"), Candidate.of("gam")));
        }
        if (q.multiHop()) {
            return new Rule(
                    "multi-hop",
                    List.of("the question joins several facts"),
                    List.of(Candidate.of("gam"), Candidate.of("memcot")));
        }
        return new Rule("single-fact", List.of("the question asks for one fact"), List.of(Candidate.of("rag")));
    }
}
