package io.lorekeeper.document.lifecycle;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

import io.lorekeeper.document.DocumentDeleted;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.platform.Transitions;
import tools.jackson.databind.json.JsonMapper;

/**
 * The changes of state made through the {@link Document} aggregate: a new document, a job's
 * transition ({@link #change}, re-applied on the fresh state when it lost a race), a request's locked
 * change, a deletion. The rows derived from a document are written beside it by the concern that
 * derives them.
 */
@Repository
public class DocumentChanges {

    private final DocumentRepository documents;
    private final Transitions transitions;
    private final JsonMapper json;

    DocumentChanges(DocumentRepository documents, Transitions transitions, JsonMapper json) {
        this.documents = documents;
        this.transitions = transitions;
        this.json = json;
    }

    /**
     * Applies a job's transition in a transaction of its own, again on the fresh state when another
     * writer (a request, another replica) got there first; empty when the document is gone.
     *
     * @throws io.lorekeeper.platform.IllegalTransitionException when the document's state refuses it
     */
    public boolean change(UUID id, Consumer<Document> transition) {
        return transitions.apply(documents, id, transition).isPresent();
    }

    /** {@link #change}, with what the transition returns (a stage run's generation). */
    public <T> Optional<T> changeAndGet(UUID id, Function<Document, T> transition) {
        AtomicReference<T> result = new AtomicReference<>();
        return transitions
                .apply(documents, id, document -> result.set(transition.apply(document)))
                .map(d -> result.get());
    }

    /** Writes the changes made to managed aggregates in the current transaction now rather than at its commit. */
    public void flush() {
        documents.flush();
    }

    /** The tenant's document aggregate, its row locked until the surrounding transaction ends. */
    public Optional<Document> lock(UUID tenantId, UUID id) {
        return documents.findLockedByIdAndTenantId(id, tenantId);
    }

    public record NewDocument(
            UUID id,
            UUID tenantId,
            String title,
            DocumentKind kind,
            String profile,
            Map<String, Object> metadata,
            String contentHash,
            int charCount) {}

    /**
     * Stores a new document, QUEUED, with a PENDING row for each stage. The row is flushed at once: the
     * text and the rows derived from it, written next in the same transaction, reference it.
     */
    @Transactional
    public void insert(NewDocument doc, List<StageDef> stages) {
        documents.saveAndFlush(Document.create(
                doc.id(),
                doc.tenantId(),
                doc.title(),
                doc.kind(),
                doc.profile(),
                json.valueToTree(doc.metadata()),
                doc.contentHash(),
                doc.charCount(),
                stages));
    }

    /**
     * Deletes the tenant's document, and tells the other modules ({@link DocumentDeleted}) in the
     * same transaction. Everything derived from the document goes with it through ON DELETE CASCADE.
     */
    @Transactional
    public boolean delete(UUID tenantId, UUID id) {
        return documents
                .findLockedByIdAndTenantId(id, tenantId)
                .map(document -> {
                    documents.delete(document.deleted());
                    return true;
                })
                .orElse(false);
    }
}
