package io.lorekeeper.platform;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.micrometer.tracing.exporter.SpanExportingPredicate;

/**
 * No exported trace for the requests of monitoring itself: probes and scrapes under {@code /actuator} come
 * every few seconds from every replica and would bury the question traces. Their request metrics
 * ({@code http_server_requests}) stay.
 */
@Configuration(proxyBeanMethods = false)
class QuietProbes {

    @Bean
    SpanExportingPredicate noActuatorSpans() {
        return span -> {
            String uri = span.getTags().get("uri");
            return uri == null || !uri.startsWith("/actuator");
        };
    }
}
