package io.lorekeeper.llm;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;

import io.lorekeeper.memory.FaultInjectingEmbeddingModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.TestStrategies;

/**
 * Like {@link io.lorekeeper.support.LlmIntegrationTest}, but the LLM is the real client stack
 * ({@code OpenAiChatModels} → Spring AI {@code OpenAiChatModel} → openai-java over HTTP) talking to
 * {@link FakeOpenAi}. Profiles and roles it configures are listed on {@link FakeOpenAi.Initializer}.
 * All such tests share one application context and a database of its own (the initializer does
 * what {@link io.lorekeeper.support.TestDatabaseInitializer} does, on {@code TestDatabase.sibling("fake_openai")});
 * the fake is reset before each test.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ContextConfiguration(initializers = FakeOpenAi.Initializer.class)
@Import({TestStrategies.class, FaultInjectingEmbeddingModel.Config.class, Api.Config.class})
@ExtendWith(FakeOpenAi.ResetBeforeEach.class)
public @interface FakeOpenAiTest {}
