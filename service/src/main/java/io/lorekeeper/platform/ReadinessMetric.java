package io.lorekeeper.platform;

import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.contributor.Status;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code lorekeeper_ready}: 1 while this replica would pass its readiness probe (accepting traffic, the
 * database answering within its timeout), else 0, as of each scrape. Prometheus scrapes pods directly, so
 * it sees a replica that is not ready, and the alert on a flapping readiness counts its changes.
 */
@Component
class ReadinessMetric {

    static final String READY = "lorekeeper.ready";

    ReadinessMetric(MeterRegistry registry, ApplicationAvailability availability, DatabaseHealth database) {
        Gauge.builder(READY, () -> ready(availability, database) ? 1 : 0)
                .description("1 while this replica passes its readiness checks (accepting traffic, database answering)")
                .register(registry);
    }

    private static boolean ready(ApplicationAvailability availability, DatabaseHealth database) {
        return availability.getReadinessState() == ReadinessState.ACCEPTING_TRAFFIC
                && Status.UP.equals(database.health().getStatus());
    }
}
