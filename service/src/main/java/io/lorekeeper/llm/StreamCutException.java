package io.lorekeeper.llm;

/**
 * A streamed answer stopped before the model finished it (the connection dropped, the stream ended
 * without a finish reason). What arrived was shown as a draft, but it is not an answer: the strategy
 * answers as after any unusable reply (its last resort), never from half a sentence.
 */
public class StreamCutException extends UnusableReplyException {

    public StreamCutException(String message) {
        super(message);
    }
}
