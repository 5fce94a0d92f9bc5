package io.lorekeeper.strategy;

/**
 * The kinds of question, over the kinds of documents, that {@code auto} routes by: a strategy declares
 * which it is good at ({@link AnswerStrategy#goodAt()}), and auto tries, for the kind a question is, the
 * strategies that declared it, lowest {@link GoodAt#rank()} first. A strategy that declares none is
 * never picked by auto (it can still be asked for by name).
 *
 * <p>The ranks today's strategies declare, so that a new one can place itself among them: one call, rag
 * 10; conversation reasoning, GAM 10 and MemCoT 20; a long text's whole story, ComoRAG 10, MindGraph over
 * the shared graph 20, GAM 30, COSMIR 40; a shorter text's whole story, MindGraph 10 and GAM 20; joined
 * facts, GAM 10 and MemCoT 20.
 */
public enum Aptitude {
    /**
     * One model call over one retrieval: a question for one fact, a text one retrieval shows whole, a
     * budget with room for one call. Also auto's fallback, before {@link Strategies#DEFAULT}, when none of
     * the strategies declared for a question's kind can run.
     */
    ONE_CALL,
    /** Conversation histories, and a question about time or one that joins several facts. */
    CONVERSATION_REASONING,
    /** A long text (a novel, a long report), and a multiple-choice question or one about the text as a whole. */
    LONG_TEXT_WHOLE_STORY,
    /** A shorter text, and a question about the text as a whole. */
    TEXT_WHOLE_STORY,
    /** A question that joins several facts, over documents that are not conversation histories. */
    JOINED_FACTS
}
