package io.lorekeeper.support;

import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/** Points the application under test at {@link TestDatabase}. */
public class TestDatabaseInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        apply(TestDatabase.get(), context);
    }

    /** For the context with an LLM configured: a database of its own (see {@link TestDatabase#sibling}). */
    public static class WithLlm implements ApplicationContextInitializer<ConfigurableApplicationContext> {
        @Override
        public void initialize(ConfigurableApplicationContext context) {
            apply(TestDatabase.sibling("llm"), context);
        }
    }

    /**
     * Points a test context at its database. Cached contexts stay open for the whole run, so their
     * pools keep few idle connections: several suites may share one local server.
     */
    public static void apply(TestDatabase.Connection db, ConfigurableApplicationContext context) {
        TestPropertyValues.of(
                        "spring.datasource.url=" + db.url(),
                        "spring.datasource.username=" + db.username(),
                        "spring.datasource.password=" + db.password(),
                        "spring.datasource.hikari.minimum-idle=2",
                        "logging.structured.format.console=",
                        "db-scheduler.polling-interval=500ms")
                .applyTo(context);
    }
}
