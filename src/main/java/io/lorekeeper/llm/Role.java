package io.lorekeeper.llm;

import java.util.Locale;

/** Who is calling the model; each role maps to a model profile, so a cheap model can memorize while a strong one researches. */
public enum Role {
    MEMORIZER, BUILDER, PLANNER, RESEARCHER, JUDGE, ANSWERER;

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
