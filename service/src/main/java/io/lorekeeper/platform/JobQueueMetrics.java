package io.lorekeeper.platform;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import com.github.kagkarlsson.scheduler.task.Task;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The job queue as KEDA sees it, for dashboards and alerts: per task, the jobs whose time has come
 * and no replica has picked ({@code due}), the jobs a replica runs ({@code running}), and how long the
 * oldest due job has waited. Read from db-scheduler's table, so every replica reports the same
 * cluster-wide numbers (aggregate with {@code max}, not {@code sum}); one query serves a scrape, at most
 * one every few seconds.
 */
@Component
class JobQueueMetrics {

    static final String JOBS = "lorekeeper.jobs";
    static final String OLDEST_DUE = "lorekeeper.jobs.oldest.due";
    private static final Duration FRESH = Duration.ofSeconds(5);

    private record Counts(long due, long running, double oldestDueSeconds) {}

    private final JdbcClient jdbc;
    private volatile Map<String, Counts> snapshot = Map.of();
    private volatile Instant readAt = Instant.MIN;

    JobQueueMetrics(JdbcClient jdbc, MeterRegistry registry, List<Task<?>> tasks) {
        this.jdbc = jdbc;
        for (Task<?> task : tasks) {
            String name = task.getName();
            Gauge.builder(JOBS, this, m -> m.counts(name).due())
                    .description("jobs whose execution time has come, by state: due (waiting for a worker) or"
                            + " running; cluster-wide")
                    .tags("task", name, "state", "due")
                    .register(registry);
            Gauge.builder(JOBS, this, m -> m.counts(name).running())
                    .tags("task", name, "state", "running")
                    .register(registry);
            Gauge.builder(OLDEST_DUE, this, m -> m.counts(name).oldestDueSeconds())
                    .description("how long the oldest due job of the task has waited for a worker; 0 when none waits")
                    .baseUnit("seconds")
                    .tag("task", name)
                    .register(registry);
        }
    }

    private Counts counts(String task) {
        return read().getOrDefault(task, new Counts(0, 0, 0));
    }

    private synchronized Map<String, Counts> read() {
        if (readAt.plus(FRESH).isAfter(Instant.now())) {
            return snapshot;
        }
        Map<String, Counts> counts = new ConcurrentHashMap<>();
        try {
            jdbc.sql("""
                SELECT task_name,
                       count(*) FILTER (WHERE NOT picked) AS due,
                       count(*) FILTER (WHERE picked) AS running,
                       coalesce(extract(epoch FROM now() - min(execution_time) FILTER (WHERE NOT picked)), 0) AS oldest
                FROM scheduled_tasks
                WHERE execution_time <= now()
                GROUP BY task_name""").query(rs -> {
                counts.put(
                        rs.getString("task_name"),
                        new Counts(rs.getLong("due"), rs.getLong("running"), rs.getDouble("oldest")));
            });
        } catch (org.springframework.dao.DataAccessException unreachable) {
            // the database does not answer: readiness says so; the gauges keep the last numbers read
            return snapshot;
        }
        snapshot = counts;
        readAt = Instant.now();
        return counts;
    }
}
