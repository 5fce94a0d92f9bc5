package io.lorekeeper.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;

import io.lorekeeper.memory.FaultInjectingEmbeddingModel;

/**
 * The whole service on a random port against a real PostgreSQL with pgvector, with no LLM configured. Every integration
 * test uses exactly this configuration, so they share one application context.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"lorekeeper.llm.base-url=", "lorekeeper.llm.api-key="})
@ContextConfiguration(initializers = TestDatabaseInitializer.class)
@Import({TestStrategies.class, FaultInjectingEmbeddingModel.Config.class, Api.Config.class, TestClock.Config.class})
public @interface IntegrationTest {}
