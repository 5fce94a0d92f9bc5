package io.lorekeeper.llm;

/**
 * Prompt text a caller has already assembled, tags included (numbered passages, say): inserted
 * into a template as is. Plain string variables are treated as untrusted data and have any
 * attempt to close one of our tags defused; build markup from data with {@link #data(String)}.
 */
public record PromptMarkup(String text) {

    public static PromptMarkup of(String markup) {
        return new PromptMarkup(markup);
    }

    /** Untrusted text made safe to place inside one of our tags. */
    public static String data(String untrusted) {
        return PromptTemplates.defuse(untrusted);
    }
}
