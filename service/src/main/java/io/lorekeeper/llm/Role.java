package io.lorekeeper.llm;

import java.util.Locale;

/**
 * Who is calling the model; each role maps to a model profile, so a cheap model can memorize while a
 * strong one researches. {@code JUDGE} grades answers in evaluations; {@code CRITIC} is a strategy's own
 * judge inside its loop (MemCoT's "can it answer yet?"), kept apart so the two never share a profile by accident.
 */
public enum Role {
    MEMORIZER,
    BUILDER,
    PLANNER,
    RESEARCHER,
    JUDGE,
    ANSWERER,
    CRITIC;

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
