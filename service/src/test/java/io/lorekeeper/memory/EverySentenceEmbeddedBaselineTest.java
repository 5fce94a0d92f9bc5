package io.lorekeeper.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.text.Span;

/** The extractive benchmark's baseline reads no stored sentence vector, and touches no other bean. */
class EverySentenceEmbeddedBaselineTest {

    @SuppressWarnings("unchecked")
    @Test
    void theSentencesMemoryReadsAsEmptyAndOtherBeansStayAsTheyAre() {
        JdbcClient jdbc = mock(JdbcClient.class);
        ObjectProvider<JdbcClient> jdbcs = mock(ObjectProvider.class);
        ObjectProvider<JdbcTemplate> batches = mock(ObjectProvider.class);
        when(jdbcs.getObject()).thenReturn(jdbc);
        when(batches.getObject()).thenReturn(mock(JdbcTemplate.class));
        EverySentenceEmbeddedBaseline baseline = new EverySentenceEmbeddedBaseline(jdbcs, batches);

        Object replaced = baseline.postProcessAfterInitialization(new SentenceVectors(jdbc, null), "sentenceVectors");
        Object other = new Object();

        assertThat(replaced).isInstanceOf(SentenceVectors.class);
        assertThat(((SentenceVectors) replaced).stored(UUID.randomUUID(), List.of(new Span(0, 10))))
                .isEmpty();
        verifyNoInteractions(jdbc);
        assertThat(baseline.postProcessAfterInitialization(other, "other")).isSameAs(other);
        assertThat(baseline.postProcessAfterInitialization(replaced, "sentenceVectors"))
                .isSameAs(replaced);
    }
}
