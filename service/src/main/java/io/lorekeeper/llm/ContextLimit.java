package io.lorekeeper.llm;

/**
 * How much one call to a role's model can carry: its profile's {@code context-window}, of which
 * {@code max-output-tokens} are kept free for the reply.
 */
public record ContextLimit(String profile, int contextWindow, int maxOutputTokens) {

    /** The most prompt tokens a call can send. */
    public int promptTokens() {
        return Math.max(0, contextWindow - maxOutputTokens);
    }
}
