package io.lorekeeper.llm;

/**
 * A tool the model may call inside a gateway-driven tool loop. Arguments arrive as the JSON text
 * the model produced; the result goes back to the model as text.
 *
 * @see LlmSession#withTools
 */
public interface LlmTool {

    String name();

    String description();

    /** JSON schema of the arguments object. */
    String parametersSchema();

    String call(String argumentsJson);
}
