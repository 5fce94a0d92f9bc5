package io.lorekeeper.llm;

import java.util.List;

/** What one model call returned: text, or requests to call tools; with its token usage. */
record Reply(String text, List<ToolRequest> toolCalls, long promptTokens, long completionTokens, boolean cached) {

    record ToolRequest(String id, String name, String arguments) {}

    boolean wantsTools() {
        return toolCalls != null && !toolCalls.isEmpty();
    }
}
