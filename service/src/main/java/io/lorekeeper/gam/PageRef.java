package io.lorekeeper.gam;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;

/**
 * A page as the researcher's prompts name it: the document's 1-based position in the question's
 * document list, and the page ordinal within that document.
 */
record PageRef(
        @NotNull @Positive Integer doc,
        @NotNull @PositiveOrZero Integer page) {

    String label() {
        return "D" + doc + "-P" + page;
    }
}
