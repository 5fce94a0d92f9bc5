package io.lorekeeper.llm;

/**
 * The model stopped at its output limit ({@code finish_reason: length}) and what it wrote could not
 * be used, even after one retry with a larger limit where the context window had room. It is an
 * {@link UnusableReplyException}: a strategy ends or skips the step as it does for any reply it
 * cannot use, and the message names the setting to raise.
 */
public class TruncatedReplyException extends UnusableReplyException {

    private final transient String partial;
    private final String setting;

    public TruncatedReplyException(String message, String setting, String partial) {
        super(message);
        this.setting = setting;
        this.partial = partial;
    }

    /** The property that raises the limit of the role that was cut ({@code lorekeeper.llm.max-output-tokens}, say). */
    public String setting() {
        return setting;
    }

    /** What the model wrote before it was cut; may be empty. */
    String partial() {
        return partial == null ? "" : partial;
    }
}
