package io.lorekeeper.memory;

import java.util.Collection;
import java.util.List;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

interface EmbeddingChangeRepository extends JpaRepository<EmbeddingChange, UUID> {

    List<EmbeddingChange> findByStateIn(Collection<EmbeddingChange.State> states);

    List<EmbeddingChange> findTop20ByOrderByRequestedAtDesc();
}
