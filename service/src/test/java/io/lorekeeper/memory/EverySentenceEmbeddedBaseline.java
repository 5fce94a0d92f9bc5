package io.lorekeeper.memory;

import java.util.Collection;
import java.util.Map;
import java.util.UUID;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.lorekeeper.text.Span;

/**
 * The extractive benchmark's baseline, {@code lorekeeper.benchmark.extractive-baseline=every-sentence-embedded}: the
 * path before the {@code sentences} memory, where every candidate sentence is embedded at question time. The
 * memory is still built; questions just find no stored vector in it. Test code, so the service jar carries none
 * of it: {@code scripts/benchmark.sh} runs its extractive phase on the test class path (where the component scan
 * finds this), and with the property absent nothing changes.
 */
@Component
@ConditionalOnProperty(name = "lorekeeper.benchmark.extractive-baseline", havingValue = "every-sentence-embedded")
class EverySentenceEmbeddedBaseline implements BeanPostProcessor {

    private final ObjectProvider<JdbcClient> jdbc;
    private final ObjectProvider<JdbcTemplate> batch;

    EverySentenceEmbeddedBaseline(ObjectProvider<JdbcClient> jdbc, ObjectProvider<JdbcTemplate> batch) {
        this.jdbc = jdbc;
        this.batch = batch;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String name) {
        if (!(bean instanceof SentenceVectors) || bean instanceof NoneStored) {
            return bean;
        }
        org.slf4j.LoggerFactory.getLogger(EverySentenceEmbeddedBaseline.class)
                .warn("Extractive baseline (benchmarks only): questions embed every candidate sentence");
        return new NoneStored(jdbc.getObject(), batch.getObject());
    }

    /** The sentences memory as it is written, but read as if it held nothing. */
    static final class NoneStored extends SentenceVectors {

        NoneStored(JdbcClient jdbc, JdbcTemplate batch) {
            super(jdbc, batch);
        }

        @Override
        public Map<Span, float[]> stored(UUID documentId, Collection<Span> spans) {
            return Map.of();
        }
    }
}
