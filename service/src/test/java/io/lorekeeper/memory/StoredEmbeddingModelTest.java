package io.lorekeeper.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionOperations;

import io.lorekeeper.support.IntegrationTest;

/** The running service recorded its model; a replica configured with another is refused, and records nothing. */
@IntegrationTest
class StoredEmbeddingModelTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    TransactionOperations transactions;

    @Test
    void aReplicaOnAnotherModelIsRefusedAndTheStoredModelStays() {
        assertThat(stored()).isEqualTo("bge-small-en-v1.5");

        assertThatThrownBy(() -> StoredEmbeddingModel.check(jdbc, transactions, "e5-small-v2-q", 384))
                .hasMessageContaining("made with the embedding model bge-small-en-v1.5 (384 dimensions)")
                .hasMessageContaining("configured with e5-small-v2-q (384 dimensions)");
        assertThatThrownBy(() -> StoredEmbeddingModel.check(jdbc, transactions, "bge-base-en-v1.5", 768))
                .hasMessageContaining("bge-base-en-v1.5 (768 dimensions)");
        assertThat(stored()).isEqualTo("bge-small-en-v1.5");

        StoredEmbeddingModel.check(jdbc, transactions, "bge-small-en-v1.5", 384);
    }

    private String stored() {
        return jdbc.sql("SELECT name FROM embedding_model").query(String.class).single();
    }
}
