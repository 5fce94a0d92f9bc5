package io.lorekeeper.llm;

import org.springframework.ai.chat.model.ChatModel;

/**
 * Where the gateway gets a Spring AI {@link ChatModel} for a profile. The default builds OpenAI
 * clients; tests replace it with a scripted double.
 */
public interface ChatModelProvider {

    ChatModel forProfile(ModelProfile profile);
}
