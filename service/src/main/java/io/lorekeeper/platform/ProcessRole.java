package io.lorekeeper.platform;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import org.springframework.core.env.Environment;

/**
 * What one process of the service does, from {@code lorekeeper.role}. All roles run the same image
 * against the same database; db-scheduler's table is the only hand-over between them.
 * <ul>
 * <li>{@code all} (the default): serves the API and executes jobs, for a single small install;</li>
 * <li>{@code api}: serves the API and schedules jobs, executes none (CPU stays free for requests,
 * and the api scales on request load alone);</li>
 * <li>{@code worker}: executes ingestion, enrichment, answer and evaluation jobs; it keeps its HTTP
 * port for the actuator (probes, metrics) and refuses everything else ({@link WorkerOnlyActuator}).</li>
 * </ul>
 */
public enum ProcessRole {
    ALL,
    API,
    WORKER;

    public static final String PROPERTY = "lorekeeper.role";

    public static ProcessRole of(Environment environment) {
        return parse(environment.getProperty(PROPERTY, "all"));
    }

    static ProcessRole parse(String value) {
        String name = value.strip().toUpperCase(Locale.ROOT);
        for (ProcessRole role : values()) {
            if (role.name().equals(name)) {
                return role;
            }
        }
        // a typo must not start a process that silently runs no jobs, or runs them on the api
        throw new IllegalStateException(PROPERTY + " must be one of "
                + Arrays.stream(values()).map(ProcessRole::toString).collect(Collectors.joining(", ")) + ", not '"
                + value + "'");
    }

    public boolean executesJobs() {
        return this != API;
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
