package io.lorekeeper.question;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.stereotype.Component;

import io.lorekeeper.platform.MetricsSettings;
import io.lorekeeper.question.QuestionStore.StoredQuestion;
import io.lorekeeper.strategy.Strategies;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * Questions as an operator counts them: runs started, questions finished by outcome, runs in progress
 * on this replica. The run's latency is the timer of its observation ({@link QuestionRun}); questions
 * waiting to run are the {@code answer-question} jobs due ({@code lorekeeper_jobs}). Every label is
 * bounded: the strategy (one of those deployed), the outcome, two flags, and the tenant only where the
 * operator enables it; never a question or document id.
 */
@Component
class QuestionMetrics {

    static final String STARTED = "lorekeeper.questions.started";
    static final String FINISHED = "lorekeeper.questions.finished";
    static final String RUNNING = "lorekeeper.questions.running";

    private final MeterRegistry registry;
    private final boolean tenantTag;
    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();

    QuestionMetrics(MeterRegistry registry, MetricsSettings settings, Strategies strategies) {
        this.registry = registry;
        this.tenantTag = settings.tenantTag();
        for (String strategy : strategies.names()) {
            AtomicInteger count = new AtomicInteger();
            running.put(strategy, count);
            Gauge.builder(RUNNING, count, AtomicInteger::get)
                    .description("questions this replica is answering now")
                    .tag("strategy", strategy)
                    .register(registry);
            if (!tenantTag) {
                // present from the start, so that rate() sees the first question (with the tenant label on,
                // series appear per tenant as they come: Prometheus wants one label set per name)
                started(strategy, null, 0);
            }
        }
    }

    /** A run began (the question is RUNNING); {@link #ended} must follow. */
    void started(StoredQuestion question) {
        started(question.strategy(), question.tenantId(), 1);
        AtomicInteger count = running.get(question.strategy());
        if (count != null) {
            count.incrementAndGet();
        }
    }

    /** The run that {@link #started} ended, however it ended. */
    void ended(StoredQuestion question) {
        AtomicInteger count = running.get(question.strategy());
        if (count != null) {
            count.decrementAndGet();
        }
    }

    private void started(String strategy, UUID tenant, int amount) {
        Counter.builder(STARTED)
                .description("question runs started (a re-queued or revived question starts again)")
                .tags(tags(strategy, tenant))
                .register(registry)
                .increment(amount);
    }

    /**
     * The question reached DONE or FAILED.
     *
     * @param finished the question as stored once it finished: its status, whether it was degraded (a
     *                 memory missing, or answered by the fallback) and budget-limited
     */
    void finished(StoredQuestion finished) {
        Counter.builder(FINISHED)
                .description("questions finished, by status (done, failed) and whether the answer was degraded"
                        + " or budget-limited")
                .tags(tags(finished.strategy(), finished.tenantId()))
                .tag("status", finished.status().name().toLowerCase(java.util.Locale.ROOT))
                .tag(
                        "degraded",
                        Boolean.toString(finished.degraded() != null
                                && !finished.degraded().isEmpty()))
                .tag("budget_limited", Boolean.toString(finished.budgetLimited()))
                .register(registry)
                .increment();
    }

    private Tags tags(String strategy, UUID tenant) {
        Tags tags = Tags.of("strategy", strategy);
        return tenantTag && tenant != null ? tags.and(MetricsSettings.TENANT, tenant.toString()) : tags;
    }

    boolean tenantTag() {
        return tenantTag;
    }
}
