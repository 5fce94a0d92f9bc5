package io.lorekeeper.llm;

import java.util.function.Function;

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

    /** A tool whose calls {@code call} answers. */
    static LlmTool of(String name, String description, String parametersSchema, Function<String, String> call) {
        record Described(String name, String description, String parametersSchema, Function<String, String> handler)
                implements LlmTool {
            @Override
            public String call(String argumentsJson) {
                return handler.apply(argumentsJson);
            }
        }
        return new Described(name, description, parametersSchema, call);
    }
}
