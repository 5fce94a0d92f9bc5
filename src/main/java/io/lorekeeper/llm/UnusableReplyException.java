package io.lorekeeper.llm;

/**
 * The model answered, but neither its reply nor the repair held anything usable. Unlike a failing
 * endpoint, this concerns one step only: a strategy may skip the step and go on with what it has.
 */
public class UnusableReplyException extends LlmException {

    public UnusableReplyException(String message) {
        super(message);
    }
}
