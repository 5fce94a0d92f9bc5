package io.lorekeeper.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.platform.MetricsSettings;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** The tenant label of the gateway's metrics: absent by default, the tenant's id where the operator enables it. */
class LlmMetricsTenantTagTest {

    private static final UUID TENANT = UUID.randomUUID();

    private static SimpleMeterRegistry recordOneCall(boolean tenantTag) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        LlmMetrics metrics = new LlmMetrics(
                registry,
                new LlmPrices(Map.of("default", new LlmPrices.Price(1, 2))),
                new MetricsSettings(tenantTag),
                unconfigured(),
                null,
                null);
        metrics.recorded(new CallRecord(
                CallScope.question(TENANT, UUID.randomUUID()),
                Role.ANSWERER,
                "default",
                "gpt-4o-mini",
                "rag/answer",
                100,
                10,
                5,
                false,
                "ok",
                null));
        return registry;
    }

    private static LlmSettings unconfigured() {
        return new LlmSettings(
                null,
                null,
                "gpt-4o-mini",
                0,
                null,
                128000,
                LlmSettings.StructuredOutputMode.NATIVE,
                4,
                0,
                java.time.Duration.ofSeconds(120),
                false,
                null,
                null,
                null,
                null,
                null);
    }

    @Test
    void noTenantLabelUnlessEnabled() {
        SimpleMeterRegistry registry = recordOneCall(false);

        assertThat(registry.getMeters())
                .isNotEmpty()
                .allSatisfy(m -> assertThat(m.getId().getTag("tenant")).isNull());
        assertThat(registry.get(LlmMetrics.TOKENS)
                        .tag("type", "prompt")
                        .counter()
                        .count())
                .isEqualTo(100);
        assertThat(registry.get(LlmMetrics.COST).counter().count()).isEqualTo((100 * 1 + 10 * 2) / 1e6);
    }

    @Test
    void theTenantsIdWhereEnabled() {
        SimpleMeterRegistry registry = recordOneCall(true);

        assertThat(registry.getMeters())
                .isNotEmpty()
                .extracting(Meter::getId)
                .allSatisfy(id -> assertThat(id.getTag("tenant")).isEqualTo(TENANT.toString()));
    }
}
