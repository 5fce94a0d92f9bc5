package io.lorekeeper.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;

import io.lorekeeper.llm.ScriptedLlm;
import io.lorekeeper.memory.FaultInjectingEmbeddingModel;

/**
 * Like {@link IntegrationTest}, but with an LLM "configured" whose every profile is the
 * {@link io.lorekeeper.llm.ScriptedChatModel}: LLM strategies and memory stages run against
 * scripted replies. All such tests share one application context, and a database of their own.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "lorekeeper.llm.base-url=http://scripted.invalid/v1",
            "lorekeeper.llm.api-key=",
            // Each test scripts its own replies; cached replies from another test would leak in.
            "lorekeeper.llm.cache.enabled=false"
        })
@ContextConfiguration(initializers = TestDatabaseInitializer.WithLlm.class)
@Import({TestStrategies.class, FaultInjectingEmbeddingModel.Config.class, Api.Config.class, ScriptedLlm.class})
public @interface LlmIntegrationTest {}
