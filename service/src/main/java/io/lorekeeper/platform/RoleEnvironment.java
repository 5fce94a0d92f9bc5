package io.lorekeeper.platform;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Turns {@code lorekeeper.role=api} into {@code db-scheduler.enabled=false} before auto-configuration
 * runs: the db-scheduler starter has no switch for "schedule but never poll or execute", so the api
 * role switches the starter off and {@link SchedulingOnlyClient} provides the client that only
 * writes to the task table (the approach db-scheduler's author recommends for such processes).
 * Registered in {@code META-INF/spring.factories}; an unknown role fails the start here.
 */
public class RoleEnvironment implements EnvironmentPostProcessor {

    static final String SOURCE = "lorekeeperRole";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        ProcessRole role = ProcessRole.of(environment);
        if (!role.executesJobs()) {
            environment
                    .getPropertySources()
                    .addFirst(new MapPropertySource(SOURCE, Map.of("db-scheduler.enabled", "false")));
        }
    }
}
