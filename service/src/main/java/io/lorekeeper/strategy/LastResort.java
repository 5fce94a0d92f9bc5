package io.lorekeeper.strategy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.llm.NumberedMarkup;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.text.TokenCounter;

/**
 * What a strategy answers with when its loop's final step fails (an unusable or cut final reply, a
 * budget spent before the answer): one plain call over the evidence the loop gathered (facts, notes,
 * summaries, passages), made with the part of the budget kept for the answer. The answer carries a
 * low confidence, the citations of the evidence it shares most words with, and a {@code step.last-resort}
 * trace event with the reason. When there is no evidence, the question's best hybrid hits stand in.
 * If this call fails too, it throws, and the question module answers without a model.
 */
public final class LastResort {

    /** Confidence of an answer written this way: the loop did not vouch for it. */
    public static final double CONFIDENCE = 0.2;

    static final String TEMPLATE = "last-resort/answer";
    private static final int EVIDENCE_TOKENS = 6_000;
    private static final int CITATIONS = 3;

    private LastResort() {}

    /** One piece of gathered evidence; {@code citation} is null when it is the model's own words (a fact, a note). */
    public record Evidence(String text, Citation citation) {

        public static Evidence of(SearchHit hit) {
            return new Evidence(hit.text(), Citation.of(hit.documentId(), hit.start(), hit.end(), hit.text()));
        }

        public static Evidence note(String text) {
            return new Evidence(text, null);
        }
    }

    /**
     * @param reason        why the loop's own answer step did not answer, for the trace
     * @param evidence      what the loop gathered, most useful first
     * @param budgetLimited whether the loop stopped on its budget
     */
    public static StrategyResult answer(
            QuestionContext context, String reason, List<Evidence> evidence, boolean budgetLimited) {
        List<Evidence> material = new ArrayList<>(evidence.stream()
                .filter(e -> e.text() != null && !e.text().isBlank())
                .toList());
        boolean retrieved = false;
        if (material.stream().noneMatch(e -> e.citation() != null)) {
            context.retriever().hybrid(context.documentIds(), context.question(), 8).stream()
                    .map(Evidence::of)
                    .forEach(material::add);
            retrieved = true;
        }
        List<Evidence> shown = withinBudget(material);
        Map<String, Object> vars = new LinkedHashMap<>(AnswerParts.choiceVariables(context));
        vars.put("question", context.question());
        vars.put("evidence", render(shown));
        context.trace().record(new StepEvent.LastResortUsed(reason, shown.size(), retrieved));
        String reply =
                context.llm().answering().text(Role.ANSWERER, TEMPLATE, vars).strip();
        if (reply.isEmpty()) {
            throw new io.lorekeeper.llm.UnusableReplyException("the last-resort answer was empty");
        }
        Integer choice = choiceNamed(context, reply);
        String answer = choice != null ? context.choices().get(choice) : reply;
        List<Citation> citations = supporting(shown, answer + " " + context.question());
        context.trace().record(new StepEvent.LastResortAnswer(answer, CONFIDENCE));
        return new StrategyResult(answer, StrategyResult.GENERATED, citations, CONFIDENCE, choice, budgetLimited);
    }

    private static List<Evidence> withinBudget(List<Evidence> material) {
        List<Evidence> out = new ArrayList<>();
        int used = 0;
        for (Evidence e : material) {
            int tokens = TokenCounter.count(e.text());
            if (!out.isEmpty() && used + tokens > EVIDENCE_TOKENS) {
                continue;
            }
            out.add(e);
            used += tokens;
        }
        return out;
    }

    private static PromptMarkup render(List<Evidence> shown) {
        return NumberedMarkup.render(
                "evidence",
                shown.stream()
                        .map(e -> NumberedMarkup.Block.of(e.text().strip()))
                        .toList(),
                NumberedMarkup.Spacing.LINE_BREAK);
    }

    /** The cited evidence sharing most words with the answer and question, best first. */
    private static List<Citation> supporting(List<Evidence> shown, String wanted) {
        return bySharedWords(shown.stream().filter(e -> e.citation() != null).toList(), Evidence::text, wanted).stream()
                .limit(CITATIONS)
                .map(Evidence::citation)
                .toList();
    }

    /**
     * {@code items} ordered by how many words (of three letters or more) their text shares with
     * {@code wanted}, most first, ties in the given order: how a last resort picks what to show and cite.
     */
    public static <T> List<T> bySharedWords(List<T> items, java.util.function.Function<T, String> text, String wanted) {
        Set<String> words = words(wanted);
        return items.stream()
                .sorted(Comparator.comparingLong((T item) -> words(text.apply(item)).stream()
                                .filter(words::contains)
                                .count())
                        .reversed())
                .toList();
    }

    private static Set<String> words(String text) {
        return java.util.Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+"))
                .filter(w -> w.length() > 2)
                .collect(Collectors.toSet());
    }

    /** The choice a plain-text reply names: by its number at the start, or by its text. */
    private static Integer choiceNamed(QuestionContext context, String reply) {
        if (!context.isMultipleChoice()) {
            return null;
        }
        java.util.regex.Matcher number =
                java.util.regex.Pattern.compile("^\\(?(\\d+)[).:]?").matcher(reply);
        if (number.find()) {
            return AnswerParts.validChoice(context, Integer.parseInt(number.group(1)));
        }
        String lower = reply.toLowerCase(Locale.ROOT);
        for (int i = 0; i < context.choices().size(); i++) {
            if (lower.contains(context.choices().get(i).toLowerCase(Locale.ROOT))) {
                return i;
            }
        }
        return null;
    }
}
