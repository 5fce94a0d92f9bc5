package io.lorekeeper.llm;

import java.util.ArrayList;
import java.util.List;

import org.springframework.stereotype.Component;

import io.lorekeeper.platform.MetricsSettings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;

/**
 * The gateway's counters, fed from the same {@link CallRecord}s the call log stores, so that the tokens
 * a dashboard shows are the tokens {@code /v1/usage} sums. Labels are bounded: profile (configured),
 * role (an enum), outcome (a fixed set), and the tenant only where the operator enables it
 * ({@link MetricsSettings#tenantTag()}); never a question, document or template.
 *
 * <p>The latency of each call is the timer of its observation ({@link LlmCallObservation}); the HTTP
 * attempts underneath are Spring AI's own {@code gen_ai.client.operation} observations.
 */
@Component
class LlmMetrics {

    static final String TOKENS = "lorekeeper.llm.tokens";
    static final String COST = "lorekeeper.llm.cost";
    static final String RETRIES = "lorekeeper.llm.retries";
    static final String UNUSABLE = "lorekeeper.llm.unusable.replies";
    static final String ENDPOINT_UP = "lorekeeper.llm.endpoint.up";

    private final MeterRegistry registry;
    private final LlmPrices prices;
    private final boolean tenantTag;

    LlmMetrics(
            MeterRegistry registry,
            LlmPrices prices,
            MetricsSettings metrics,
            LlmSettings settings,
            ModelProfiles profiles,
            EndpointProbe probe) {
        this.registry = registry;
        this.prices = prices;
        this.tenantTag = metrics.tenantTag();
        if (settings.isConfigured()) {
            for (ModelProfile profile : profiles.all()) {
                Gauge.builder(ENDPOINT_UP, probe, p -> up(p, profile.name()))
                        .description("1 while the profile's model endpoint answers (the probe at start and the calls"
                                + " since), 0 once it failed three times in a row; NaN until either")
                        .tag("profile", profile.name())
                        .register(registry);
            }
        }
    }

    private static double up(EndpointProbe probe, String profile) {
        EndpointProbe.Result result = probe.results().get(profile);
        if (result == null || result.reachable() == null) {
            return Double.NaN;
        }
        return result.reachable() ? 1 : 0;
    }

    /** One row of the call log: its tokens and estimated cost, and a retry when it was one. */
    void recorded(CallRecord call) {
        List<Tag> tags = tags(call.scope(), call.profile(), call.role());
        if ("retry".equals(call.outcome())) {
            Counter.builder(RETRIES)
                    .description("model calls tried again after a rate limit, server error or timeout")
                    .tags(tags)
                    .register(registry)
                    .increment();
        }
        String cache = call.cacheHit() ? "hit" : "miss";
        tokens(tags, "prompt", cache, call.promptTokens());
        tokens(tags, "completion", cache, call.completionTokens());
        if (!call.cacheHit()) {
            double cost = prices.cost(call.profile(), call.promptTokens(), call.completionTokens());
            Counter.builder(COST)
                    .description(
                            "estimated cost of the tokens billed (cache hits are free), from lorekeeper.llm.prices")
                    .tags(tags)
                    .register(registry)
                    .increment(cost);
        }
    }

    private void tokens(List<Tag> tags, String type, String cache, long count) {
        Counter.builder(TOKENS)
                .description("prompt and completion tokens of model calls, as the call log records them")
                .tags(tags)
                .tag("type", type)
                .tag("cache", cache)
                .register(registry)
                .increment(count);
    }

    /** A structured reply that stayed unusable after its one repair call. */
    void unusable(CallScope scope, ModelProfile profile, Role role) {
        Counter.builder(UNUSABLE)
                .description("structured replies that did not match their schema even after one repair call")
                .tags(tags(scope, profile.name(), role))
                .register(registry)
                .increment();
    }

    /** The labels every gateway metric carries: profile, role and, where enabled, the tenant. */
    List<Tag> tags(CallScope scope, String profile, Role role) {
        List<Tag> tags = new ArrayList<>(3);
        tags.add(Tag.of("profile", profile));
        tags.add(Tag.of("role", role.key()));
        if (tenantTag) {
            tags.add(Tag.of(MetricsSettings.TENANT, String.valueOf(scope.tenantId())));
        }
        return tags;
    }

    boolean tenantTag() {
        return tenantTag;
    }
}
