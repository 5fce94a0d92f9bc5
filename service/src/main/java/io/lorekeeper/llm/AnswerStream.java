package io.lorekeeper.llm;

/**
 * Hears the text of answering calls as the model writes it. A session given one ({@link
 * LlmSession#streamAnswersTo}) streams its {@link Role#ANSWERER} calls where the endpoint can stream;
 * what arrives is the answer's text: the {@code answer} field of a JSON reply, or the reply itself when
 * the model writes prose. Each streamed call is numbered from 1 within the session: a later call (a
 * repair, a last resort, another try) starts a new draft.
 */
public interface AnswerStream {

    /** A streamed call began. */
    void began(int stream, String template);

    /** More of the answer's text, in order. */
    void delta(int stream, String text);

    /**
     * The streamed call ended: {@code complete} when the model finished its reply, false when the stream
     * was cut (the call then fails and the strategy answers as it does after an unusable reply).
     */
    void ended(int stream, boolean complete);
}
