package io.lorekeeper.evaluator;

/**
 * What the LLM judge said of one answer: verdict ("correct" or "incorrect") and reason, or the error that kept it
 * from judging; the calls and tokens judging cost (not part of the answer's own LLM cost).
 */
public record Judgement(String verdict, String reason, String error, long calls, long tokens) {

    /** 1 for correct, 0 for incorrect, null when the judge failed. */
    public Double score() {
        return verdict == null ? null : verdict.equals("correct") ? 1.0 : 0.0;
    }
}
