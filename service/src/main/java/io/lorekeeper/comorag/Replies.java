package io.lorekeeper.comorag;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.PositiveOrZero;

/** What the question loop's agents reply. */
final class Replies {

    private Replies() {}

    /** Self-Probe: new retrieval probes, none repeating an earlier one. */
    record Probes(List<String> probes) {
        List<String> list() {
            return probes == null ? List.of() : probes;
        }

        /** A reply in prose: one probe per line. */
        static Probes fromPlainText(String text) {
            return new Probes(lines(text));
        }
    }

    /** Mem-Encode for one layer: key findings on how the evidence bears on the question. */
    record Cue(List<String> findings) {
        List<String> list() {
            return findings == null ? List.of() : findings;
        }

        /** A reply in prose: one finding per line. */
        static Cue fromPlainText(String text) {
            return new Cue(lines(text));
        }
    }

    /** Mem-Encode for one probe and all three layers at once. */
    record LayeredCue(List<String> veridical, List<String> semantic, List<String> episodic) {
        List<String> of(String layer) {
            List<String> findings = switch (layer) {
                case ComoRagOptions.VERIDICAL -> veridical;
                case ComoRagOptions.SEMANTIC -> semantic;
                default -> episodic;
            };
            return findings == null ? List.of() : findings;
        }
    }

    /** Mem-Fuse: the background the past findings add up to. */
    record Fused(@NotBlank String history) {}

    /**
     * The lines of a prose reply that carry content: without list markers or a "Probe 1:" or "Key
     * finding:" label, and without blank lines or headings (lines ending in a colon).
     */
    static List<String> lines(String text) {
        return text.lines()
                .map(l -> LIST_MARKER.matcher(l.strip()).replaceFirst("").strip())
                .filter(l -> !l.isEmpty() && !l.endsWith(":") && !l.startsWith("#"))
                .toList();
    }

    private static final Pattern LIST_MARKER = Pattern.compile(
            "^(?:[-*•]\\s*|\\d+[.)]\\s*)?(?:(?:probe|key finding|finding)\\s*\\d*\\s*:)?\\s*",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern CHOICE_LETTER = Pattern.compile("\\[([A-Z])]");

    /**
     * Try-Answer: the verdict ({@code canAnswer} false is the paper's failure signal), the answer,
     * and for each item relied on, its label and words copied from it.
     */
    record Attempt(
            String understanding,
            String analysis,
            Boolean canAnswer,
            String answer,
            @PositiveOrZero Integer choice,
            @Valid List<Support> evidence,
            @DecimalMin("0") @DecimalMax("1") Double confidence) {

        record Support(@NotBlank String item, @NotBlank String quote) {}

        List<Support> supports() {
            return evidence == null ? List.of() : evidence;
        }

        /** The verdict; a reply that leaves it out but gives an answer (other than the paper's "*") is taken to answer. */
        boolean committed() {
            return canAnswer != null
                    ? canAnswer
                    : answer != null && !answer.isBlank() && !answer.strip().equals("*");
        }

        /** The stated confidence; without one, a middling 0.5 for an answer and 0.2 for a failure. */
        double confidenceValue() {
            return confidence != null ? confidence : committed() ? 0.5 : 0.2;
        }

        /**
         * A reply in prose: its text is the answer, with no evidence and low confidence; a lone
         * {@code *} is the paper's failure signal, and a bracketed letter ({@code [B]}) the paper's
         * way of naming a choice.
         */
        static Attempt fromPlainText(String text, int choices) {
            String answer = text.strip();
            Integer choice = null;
            Matcher letter = CHOICE_LETTER.matcher(answer);
            if (choices > 0 && letter.find() && letter.group(1).charAt(0) - 'A' < choices) {
                choice = letter.group(1).charAt(0) - 'A';
            }
            boolean failed = answer.equals("*") || answer.isEmpty();
            return new Attempt(null, null, !failed, failed ? "" : answer, choice, List.of(), failed ? 0.0 : 0.2);
        }
    }
}
