package io.lorekeeper.llm;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/** Puts one {@link ScriptedChatModel} behind every model profile. */
@TestConfiguration(proxyBeanMethods = false)
public class ScriptedLlm {

    @Bean
    ScriptedChatModel scriptedChatModel() {
        return new ScriptedChatModel();
    }

    @Bean
    @Primary
    ChatModelProvider scriptedChatModelProvider(ScriptedChatModel model) {
        return profile -> model;
    }
}
