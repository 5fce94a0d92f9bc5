package io.lorekeeper.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;

import io.lorekeeper.memory.FaultInjectingEmbeddingModel;

/**
 * Like {@link IntegrationTest}, but with an admin key configured, so that every {@code /v1} request
 * needs an API key. Every test of the secured mode uses exactly this configuration (one shared
 * context) and its own database. The default request rate is high so that polling tests never
 * meet it; quota tests give their tenants their own limits.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "lorekeeper.llm.base-url=",
            "lorekeeper.llm.api-key=",
            "lorekeeper.security.admin-key=" + SecuredIntegrationTest.ADMIN_KEY,
            "lorekeeper.quotas.requests-per-minute=100000"
        })
@ContextConfiguration(initializers = SecuredIntegrationTest.Database.class)
@Import({TestStrategies.class, FaultInjectingEmbeddingModel.Config.class, Api.Config.class, TestClock.Config.class})
public @interface SecuredIntegrationTest {

    String ADMIN_KEY = "test-admin-key-0123456789abcdefghijklmnop";

    /** A database of its own: its jobs must run with this context's settings. */
    class Database implements ApplicationContextInitializer<ConfigurableApplicationContext> {
        @Override
        public void initialize(ConfigurableApplicationContext context) {
            TestDatabaseInitializer.apply(TestDatabase.sibling("secured"), context);
        }
    }
}
