package io.lorekeeper.llm;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.Tag;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.ObservationRegistry;

/**
 * One gateway call as an observation: a span named {@code llm <role>} that spans the limiter's wait,
 * every retried attempt (each attempt a child span of Spring AI's own, {@code chat <model>}, with the
 * GenAI semantic-convention attributes) and a cache hit, and the {@code lorekeeper.llm.call} timer by
 * profile, role and outcome.
 *
 * <p>Its own span attributes are {@code lorekeeper.llm.*}, not {@code gen_ai.usage.*}: a backend that
 * sums GenAI token attributes over spans would otherwise count each reply twice. No prompt or reply
 * text is put on it.
 */
final class LlmCallObservation {

    static final String NAME = "lorekeeper.llm.call";

    private LlmCallObservation() {}

    /** What the call came to; filled in as it goes, read when the observation stops. */
    static final class Context extends Observation.Context {
        private final ChatCaller.Request request;
        private final LlmMetrics metrics;
        /** ok, cached, truncated, cut (a stream stopped early), rate_limited, error (client error, spent attempts or budget): a fixed set. */
        private volatile String outcome = "error";

        private volatile long promptTokens;
        private volatile long completionTokens;
        private volatile int attempts;

        Context(ChatCaller.Request request, LlmMetrics metrics) {
            this.request = request;
            this.metrics = metrics;
        }

        private volatile boolean streamed;

        void attempt() {
            attempts++;
        }

        /** The reply came through the streaming API. */
        void streamed() {
            streamed = true;
        }

        void finished(String outcome, long promptTokens, long completionTokens) {
            this.outcome = outcome;
            this.promptTokens = promptTokens;
            this.completionTokens = completionTokens;
        }
    }

    static Observation start(ObservationRegistry registry, Context context) {
        return Observation.createNotStarted(CONVENTION, () -> context, registry).start();
    }

    private static final ObservationConvention<Context> CONVENTION = new ObservationConvention<>() {
        @Override
        public String getName() {
            return NAME;
        }

        @Override
        public String getContextualName(Context context) {
            return "llm " + context.request.role().key();
        }

        @Override
        public KeyValues getLowCardinalityKeyValues(Context context) {
            KeyValues values = KeyValues.of("outcome", context.outcome);
            for (Tag tag : context.metrics.tags(
                    context.request.scope(), context.request.profile().name(), context.request.role())) {
                values = values.and(tag.getKey(), tag.getValue());
            }
            return values;
        }

        @Override
        public KeyValues getHighCardinalityKeyValues(Context context) {
            CallScope scope = context.request.scope();
            KeyValues values = KeyValues.of(
                    KeyValue.of("lorekeeper.llm.template", context.request.template()),
                    KeyValue.of(
                            "lorekeeper.llm.model", context.request.profile().model()),
                    KeyValue.of("lorekeeper.llm.prompt_tokens", Long.toString(context.promptTokens)),
                    KeyValue.of("lorekeeper.llm.completion_tokens", Long.toString(context.completionTokens)),
                    KeyValue.of("lorekeeper.llm.attempts", Integer.toString(context.attempts)),
                    KeyValue.of("lorekeeper.llm.streamed", Boolean.toString(context.streamed)));
            if (!context.metrics.tenantTag() && scope.tenantId() != null) {
                values = values.and("lorekeeper.tenant", scope.tenantId().toString());
            }
            if (scope.questionId() != null) {
                values = values.and("lorekeeper.question.id", scope.questionId().toString());
            }
            if (scope.documentId() != null) {
                values = values.and("lorekeeper.document.id", scope.documentId().toString());
            }
            return values;
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return context instanceof Context;
        }
    };
}
