package io.lorekeeper.document.ingestion;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.lorekeeper.document.StageStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What ingestion has left to do: stages by status across all documents (the backlog; read from the
 * database, so every replica reports the same numbers: aggregate with {@code max}). Stage durations
 * and failures are the timer of {@link StageObservation}; what the keyword index holds, the gauges of
 * {@code search.KeywordIndexMetrics}.
 */
@Component
class IngestionMetrics {

    static final String STAGES = "lorekeeper.ingestion.stages";
    private static final Duration FRESH = Duration.ofSeconds(10);
    /** The states a stage waits or works in, or failed in: the ones worth a series. */
    private static final List<StageStatus> SHOWN =
            List.of(StageStatus.PENDING, StageStatus.RUNNING, StageStatus.FAILED);

    private final JdbcClient jdbc;
    private volatile Map<String, Long> snapshot = Map.of();
    private volatile Instant readAt = Instant.MIN;

    IngestionMetrics(JdbcClient jdbc, MeterRegistry registry, IngestionPipeline pipeline) {
        this.jdbc = jdbc;
        for (String stage : pipeline.stageNames()) {
            for (StageStatus status : SHOWN) {
                String key = stage + "|" + status.name();
                Gauge.builder(STAGES, this, m -> m.read().getOrDefault(key, 0L))
                        .description("ingestion stages of all documents by status: pending and running are the"
                                + " backlog, failed the memories that failed (for now or for good); cluster-wide")
                        .tags("stage", stage, "status", status.name().toLowerCase(java.util.Locale.ROOT))
                        .register(registry);
            }
        }
    }

    private synchronized Map<String, Long> read() {
        if (readAt.plus(FRESH).isAfter(Instant.now())) {
            return snapshot;
        }
        Map<String, Long> counts = new ConcurrentHashMap<>();
        try {
            jdbc.sql("""
                    SELECT stage, status, count(*) AS n FROM ingestion_stage
                    WHERE status IN ('PENDING', 'RUNNING', 'FAILED') GROUP BY stage, status""").query(rs -> {
                counts.put(rs.getString("stage") + "|" + rs.getString("status"), rs.getLong("n"));
            });
        } catch (org.springframework.dao.DataAccessException unreachable) {
            return snapshot; // readiness reports the database; the gauges keep the last numbers read
        }
        snapshot = counts;
        readAt = Instant.now();
        return counts;
    }
}
