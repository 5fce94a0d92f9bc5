package io.lorekeeper.memcot;

import java.util.Set;

import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.strategy.QuestionOptions;

/**
 * MemCoT's knobs with the paper's defaults: top-K 10 per query, at most 8 iterations, at most 3 new
 * queries per judgement. The zoom-out window is not given for LoCoMo; the authors' code uses ±4
 * turns, which fits conversation chunks (one or a few turns); a 256-token text chunk carries far more,
 * so texts default to ±1. The perception agents and the responder sample at 1.0, as in the paper
 * (Appendix C); 0 is an option ({@code perceptionTemperature}, {@code responderTemperature}) for runs that
 * must repeat and be cached. The judge is always 0.
 *
 * @param window                null: 4 for conversations and 1 for texts
 * @param wholeDocumentFallback when the judge never says the memory is enough, the responder reads the
 *                              whole conversation (the authors' code), where it fits the answerer's
 *                              context window and the budget; false answers from the memory, unsure
 * @param noNewQueries          what happens when the judge proposes nothing that has not already failed:
 *                              {@code re-ask}, the judge is asked again, told which of its queries failed
 *                              before, up to {@value #REASKS} times (the authors' code), or {@code stop}, the
 *                              loop ends (the service's earlier rule)
 */
record MemCotSettings(
        int k,
        Integer window,
        int maxSteps,
        boolean zoomOut,
        int maxQueries,
        double perceptionTemperature,
        double responderTemperature,
        boolean wholeDocumentFallback,
        String noNewQueries) {

    static final int CONVERSATION_WINDOW = 4;
    static final int TEXT_WINDOW = 1;
    /** The perception agents' and the responder's temperature in the paper (Appendix C). */
    static final double PAPER_TEMPERATURE = 1.0;

    static final String RE_ASK = "re-ask";
    static final String STOP = "stop";
    /** How often the judge is asked again for queries that have not failed (the authors' code: five asks in all). */
    static final int REASKS = 4;

    private static final Set<String> OPTIONS = Set.of(
            "k",
            "window",
            "maxSteps",
            "zoomOut",
            "maxQueries",
            "perceptionTemperature",
            "responderTemperature",
            "wholeDocumentFallback",
            "noNewQueries");

    static MemCotSettings of(QuestionOptions options) {
        options.allowOnly(OPTIONS);
        Long window = options.longValue("window", 0, 20);
        return new MemCotSettings(
                options.intValue("k", 10, 1, 50),
                window == null ? null : window.intValue(),
                options.intValue("maxSteps", 8, 1, 20),
                options.booleanValue("zoomOut", true),
                options.intValue("maxQueries", 3, 1, 10),
                options.doubleValue("perceptionTemperature", PAPER_TEMPERATURE, 0.0, 2.0),
                options.doubleValue("responderTemperature", PAPER_TEMPERATURE, 0.0, 2.0),
                options.booleanValue("wholeDocumentFallback", true),
                options.stringValue("noNewQueries", RE_ASK, Set.of(RE_ASK, STOP)));
    }

    /** How often the judge is asked again when it proposes nothing new: {@value #REASKS}, or none with {@code stop}. */
    int reasks() {
        return noNewQueries.equals(RE_ASK) ? REASKS : 0;
    }

    int windowFor(DocumentKind kind) {
        if (window != null) {
            return window;
        }
        return kind == DocumentKind.CONVERSATION ? CONVERSATION_WINDOW : TEXT_WINDOW;
    }
}
