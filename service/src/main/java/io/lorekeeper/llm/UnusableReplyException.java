package io.lorekeeper.llm;

/**
 * The model answered, but nothing in its reply (or in the one repair) could be used. Unlike a
 * transport failure, the endpoint works: a strategy can end the step and answer with what it has.
 */
public class UnusableReplyException extends LlmException {

    public UnusableReplyException(String message) {
        super(message);
    }
}
