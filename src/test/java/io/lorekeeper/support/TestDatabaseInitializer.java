package io.lorekeeper.support;

import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/** Points the application under test at {@link TestDatabase}. */
public class TestDatabaseInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        TestDatabase.Connection db = TestDatabase.get();
        TestPropertyValues.of(
                "spring.datasource.url=" + db.url(),
                "spring.datasource.username=" + db.username(),
                "spring.datasource.password=" + db.password(),
                "logging.structured.format.console=",
                "db-scheduler.polling-interval=500ms")
                .applyTo(context);
    }
}
