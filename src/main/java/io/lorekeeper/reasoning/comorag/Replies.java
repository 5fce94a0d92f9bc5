package io.lorekeeper.reasoning.comorag;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;

/** What the question loop's agents reply. */
final class Replies {

    private Replies() {
    }

    /** Self-Probe: new retrieval probes, none repeating an earlier one. */
    record Probes(List<String> probes) {
        List<String> list() {
            return probes == null ? List.of() : probes;
        }
    }

    /** Mem-Encode for one layer: key findings on how the evidence bears on the question. */
    record Cue(List<String> findings) {
        List<String> list() {
            return findings == null ? List.of() : findings;
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
    record Fused(@NotBlank String history) {
    }

    /**
     * Try-Answer: the verdict ({@code canAnswer} false is the paper's failure signal), the answer,
     * and for each item relied on, its label and words copied from it.
     */
    record Attempt(String understanding, String analysis, @NotNull Boolean canAnswer, String answer, @PositiveOrZero Integer choice,
            @Valid List<Support> evidence, @NotNull @DecimalMin("0") @DecimalMax("1") Double confidence) {

        record Support(@NotBlank String item, @NotBlank String quote) {
        }

        List<Support> supports() {
            return evidence == null ? List.of() : evidence;
        }
    }
}
