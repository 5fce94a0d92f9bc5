package io.lorekeeper.auto;

/**
 * What is known when a question arrives, before any model call: the routing rules read only this.
 *
 * @param llm           an LLM endpoint is configured
 * @param conversation  every document is a conversation history (sessions of turns)
 * @param tokens        the documents' tokens together
 * @param chunks        their retrieval chunks together
 * @param form          what the question's wording asks for
 * @param maxCalls      model calls the question's budget allows
 * @param maxTokens     model tokens the question's budget allows
 */
record Situation(
        boolean llm,
        boolean conversation,
        long tokens,
        int chunks,
        QuestionForm form,
        int maxCalls,
        long maxTokens,
        String llmDown) {

    /** @param llm a model is configured and its endpoint answers */
    Situation(
            boolean llm,
            boolean conversation,
            long tokens,
            int chunks,
            QuestionForm form,
            int maxCalls,
            long maxTokens) {
        this(llm, conversation, tokens, chunks, form, maxCalls, maxTokens, null);
    }

    /** Above this a text is long (a novel, a long report): more than a few dozen pages. */
    static final long LONG_TEXT_TOKENS = 64_000;
    /** At most this many chunks, a single retrieval shows the model the whole text. */
    static final int WHOLE_TEXT_CHUNKS = 8;
    /** Below this many calls or tokens, only a one-call strategy fits the budget. */
    static final int FEW_CALLS = 3;

    static final long FEW_TOKENS = 20_000;

    boolean longText() {
        return tokens > LONG_TEXT_TOKENS;
    }
}
