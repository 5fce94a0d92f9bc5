package io.lorekeeper.document;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.stereotype.Service;

import io.lorekeeper.document.intake.CanonicalTexts;
import io.lorekeeper.document.lifecycle.DocumentRows;
import io.lorekeeper.document.lifecycle.StageState;
import io.lorekeeper.document.segmentation.SegmentationStore;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.text.Span;

/**
 * The document module's API for the rest of the service: look documents up within a tenant,
 * read their canonical text (cached, since citations and answers read it constantly), and map a
 * span back to the conversation turn it lies in.
 */
@Service
public class Documents {

    private final DocumentRows rows;
    private final CanonicalTexts texts;
    private final DocumentViews views;
    private final SegmentationStore segmentation;

    Documents(DocumentRows rows, CanonicalTexts texts, DocumentViews views, SegmentationStore segmentation) {
        this.rows = rows;
        this.texts = texts;
        this.views = views;
        this.segmentation = segmentation;
    }

    public Optional<DocumentInfo> find(UUID tenantId, UUID id) {
        return rows.find(id).filter(d -> d.tenantId().equals(tenantId));
    }

    /**
     * The named documents, in the order given, all belonging to the tenant and READY; otherwise a
     * problem naming {@code field}.
     */
    public List<DocumentInfo> requireReady(UUID tenantId, List<UUID> ids, String field) {
        if (ids == null || ids.isEmpty()) {
            throw ApiProblem.invalid(field, "at least one document id is required");
        }
        for (int i = 0; i < ids.size(); i++) {
            if (ids.get(i) == null) {
                throw ApiProblem.invalid(field + "[" + i + "]", "a document id must not be null");
            }
        }
        List<UUID> distinct = new ArrayList<>(new LinkedHashSet<>(ids));
        Map<UUID, DocumentInfo> found = rows.findAll(tenantId, distinct).stream()
                .collect(Collectors.toMap(DocumentInfo::id, Function.identity()));
        List<DocumentInfo> documents = new ArrayList<>();
        for (UUID id : distinct) {
            DocumentInfo doc = found.get(id);
            if (doc == null) {
                throw new ApiProblem(
                        ApiProblem.Kind.NOT_FOUND,
                        "not-found",
                        "Document not found",
                        "document " + id + " does not exist",
                        field);
            }
            if (doc.status() != DocumentStatus.READY) {
                throw ApiProblem.conflict(
                        "document-not-ready",
                        "Document not ready",
                        "document " + id + " is " + doc.status() + "; wait until it is READY",
                        field);
            }
            documents.add(doc);
        }
        return documents;
    }

    /**
     * The state of the named memories of each document, one entry per (document, stage). A stage the
     * document has no record of (added to the service after the document was ingested) is reported
     * SKIPPED, with how to build it.
     */
    public List<MemoryState> memories(List<UUID> documentIds, java.util.Collection<String> stages) {
        if (documentIds.isEmpty() || stages.isEmpty()) {
            return List.of();
        }
        Map<String, StageState> stored = rows.stages(documentIds, stages).stream()
                .collect(Collectors.toMap(s -> s.documentId() + "/" + s.name(), Function.identity()));
        List<MemoryState> states = new ArrayList<>();
        for (UUID id : documentIds) {
            for (String stage : new java.util.TreeSet<>(stages)) {
                StageState s = stored.get(id + "/" + stage);
                states.add(
                        s == null
                                ? new MemoryState(
                                        id,
                                        stage,
                                        StageStatus.SKIPPED,
                                        "this memory did not exist when the document was ingested",
                                        null,
                                        false)
                                : new MemoryState(id, stage, s.status(), s.message(), s.retryAt(), s.requested()));
            }
        }
        return states;
    }

    /**
     * The canonical text every offset of the document points into (cached: a cached copy is used while
     * its length is the stored one, since the text only ever grows).
     */
    public String text(UUID documentId) {
        int length = rows.charCount(documentId).orElseThrow(() -> ApiProblem.notFound("Document", documentId));
        return texts.text(documentId, length).orElseThrow(() -> ApiProblem.notFound("Document", documentId));
    }

    /**
     * Recomputes the document's keyword statistics (chunk and term counts, per-lexeme document
     * frequencies) after a stage changed what its chunks are indexed with (page headers added as
     * chunk context).
     */
    public void refreshKeywordStatistics(UUID documentId) {
        segmentation.refreshCounts(documentId);
    }

    /**
     * Where a span lies: the conversation turn that contains it (documents made of sessions), or the
     * page it starts on and the section (heading) it starts in (files uploaded with pages or headings).
     */
    public record Place(String turnId, Integer page, String section) {}

    /** Where the span lies, when the document has turns, pages or sections; empty for plain text. */
    public Optional<Place> placeOf(UUID documentId, Span span) {
        return views.placeOf(documentId, span);
    }
}
