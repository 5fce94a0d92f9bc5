package io.lorekeeper.strategy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.lorekeeper.document.search.SearchHit;

/**
 * The pieces every generating strategy's answer step shares: how multiple choice is put to the
 * answerer, how its chosen index is checked, and how a quote it copied from a passage becomes a
 * citation.
 */
public final class AnswerParts {

    private AnswerParts() {}

    /** Template variables {@code choices} and {@code choiceRules} for the question's (possibly absent) choices. */
    public static Map<String, Object> choiceVariables(QuestionContext context) {
        Map<String, Object> vars = new LinkedHashMap<>();
        if (context.isMultipleChoice()) {
            StringBuilder choices = new StringBuilder("Choices:\n");
            for (int i = 0; i < context.choices().size(); i++) {
                choices.append(i).append(". ").append(context.choices().get(i)).append('\n');
            }
            vars.put("choices", choices.toString());
            vars.put(
                    "choiceRules",
                    "- This is a multiple-choice question: set choice to the number of the best-supported choice, and answer with its text.");
        } else {
            vars.put("choices", "");
            vars.put("choiceRules", "- Leave choice empty (null).");
        }
        return vars;
    }

    /**
     * The final-answer prompt's rule on missing information ({@code {{abstainRule}}}): by default the
     * answer is the best the material supports, as in the papers' prompts, and the confidence carries
     * the doubt; with {@code options.abstain} the answerer may say that the information is not available.
     */
    public static String abstainRule(QuestionContext context) {
        return context.options().abstain()
                ? "- If the material does not contain the answer, say that the information is not available in the documents, with confidence 0."
                : "- Always give your best answer from the material, even when it is incomplete or indirect; say how sure you are through the confidence, not by declining to answer.";
    }

    /**
     * The question with its numbered choices appended, for steps before the answer that should
     * read the question the way the answerer will (COSMIR's planner and workers, say).
     */
    public static String questionWithChoices(QuestionContext context) {
        StringBuilder out = new StringBuilder(context.question());
        if (context.isMultipleChoice()) {
            out.append("\nChoices:");
            for (int i = 0; i < context.choices().size(); i++) {
                out.append('\n').append(i).append(". ").append(context.choices().get(i));
            }
        }
        return out.toString();
    }

    /** The chosen index if the question has choices and the index names one of them, else null. */
    public static Integer validChoice(QuestionContext context, Integer choice) {
        List<String> choices = context.choices();
        return !choices.isEmpty() && choice != null && choice >= 0 && choice < choices.size() ? choice : null;
    }

    /**
     * A citation for a quote the model copied from a passage (text starting at {@code passageStart}
     * of the document). A quote that cannot be found is still returned, pinned to the whole passage,
     * so that the verifier drops and counts it like any invented quote.
     */
    public static Quoted quoted(UUID documentId, int passageStart, String passageText, String quote) {
        return SpanLocator.locate(quote, passageText, passageStart)
                .map(s -> new Quoted(Citation.of(documentId, s.start(), s.end(), quote.strip()), true))
                .orElse(new Quoted(
                        Citation.of(
                                documentId,
                                passageStart,
                                passageStart + passageText.length(),
                                quote == null ? "" : quote),
                        false));
    }

    /**
     * A citation for a quote the model says it copied from passage {@code named} (0-based) of those it
     * was shown. Models often copy from a neighbouring passage and number the wrong one, so every
     * other passage shown is searched before the quote counts as invented; an unknown index is
     * searched the same way.
     */
    public static Quoted quotedIn(List<SearchHit> shown, int named, String quote) {
        if (shown.isEmpty()) {
            return new Quoted(Citation.of(new UUID(0, 0), 0, 0, quote == null ? "" : quote), false);
        }
        boolean known = named >= 0 && named < shown.size();
        if (known) {
            SearchHit first = shown.get(named);
            Quoted quoted = quoted(first.documentId(), first.start(), first.text(), quote);
            if (quoted.located()) {
                return quoted;
            }
        }
        for (int i = 0; i < shown.size(); i++) {
            SearchHit other = shown.get(i);
            if (i != named
                    && SpanLocator.locate(quote, other.text(), other.start()).isPresent()) {
                return quoted(other.documentId(), other.start(), other.text(), quote);
            }
        }
        SearchHit fallback = shown.get(known ? named : 0);
        return quoted(fallback.documentId(), fallback.start(), fallback.text(), quote);
    }

    /** A citation built from a model's quote, and whether the quote was found in its passage. */
    public record Quoted(Citation citation, boolean located) {}
}
