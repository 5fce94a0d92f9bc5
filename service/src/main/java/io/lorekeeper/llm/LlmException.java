package io.lorekeeper.llm;

/** A model call that did not produce a usable reply; the message is safe to show to users. */
public class LlmException extends RuntimeException implements io.lorekeeper.platform.Failures.Readable {

    public LlmException(String message) {
        super(message);
    }

    public LlmException(String message, Throwable cause) {
        super(message, cause);
    }
}
