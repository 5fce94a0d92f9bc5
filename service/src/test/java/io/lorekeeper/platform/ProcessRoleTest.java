package io.lorekeeper.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

/** lorekeeper.role decides whether this process executes jobs; the api role switches db-scheduler's poller off. */
class ProcessRoleTest {

    @Test
    void theApiRoleTurnsTheSchedulerStarterOffAndTheOthersLeaveItOn() {
        assertThat(afterPostProcessing("api").getProperty("db-scheduler.enabled"))
                .isEqualTo("false");
        assertThat(afterPostProcessing("worker").getProperty("db-scheduler.enabled"))
                .isNull();
        assertThat(afterPostProcessing("all").getProperty("db-scheduler.enabled"))
                .isNull();
        assertThat(afterPostProcessing(null).getProperty("db-scheduler.enabled"))
                .as("no role: all")
                .isNull();
    }

    @Test
    void theApiRoleWinsOverAnEnabledSchedulerInTheConfiguration() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty(ProcessRole.PROPERTY, "API ")
                .withProperty("db-scheduler.enabled", "true");
        new RoleEnvironment().postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty("db-scheduler.enabled")).isEqualTo("false");
    }

    @Test
    void anUnknownRoleFailsTheStartNamingThePropertyAndTheChoices() {
        assertThatThrownBy(() -> afterPostProcessing("both"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("lorekeeper.role")
                .hasMessageContaining("all, api, worker")
                .hasMessageContaining("'both'");
    }

    @Test
    void whatEachRoleDoes() {
        assertThat(ProcessRole.ALL.executesJobs()).isTrue();
        assertThat(ProcessRole.API.executesJobs()).isFalse();
        assertThat(ProcessRole.WORKER.executesJobs()).isTrue();
    }

    private static MockEnvironment afterPostProcessing(String role) {
        MockEnvironment environment = new MockEnvironment();
        if (role != null) {
            environment.setProperty(ProcessRole.PROPERTY, role);
        }
        new RoleEnvironment().postProcessEnvironment(environment, new SpringApplication());
        return environment;
    }
}
