package io.lorekeeper.document.intake;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.DocumentRequests.CreateDocument;
import io.lorekeeper.document.DocumentResponses.Accepted;
import io.lorekeeper.document.DocumentStatus;
import io.lorekeeper.document.IndexProfiles;
import io.lorekeeper.document.StageStatus;
import io.lorekeeper.document.files.ExtractedText;
import io.lorekeeper.document.files.FileExtractor;
import io.lorekeeper.document.files.FileName;
import io.lorekeeper.document.ingestion.IngestionJob.IngestionScheduler;
import io.lorekeeper.document.ingestion.IngestionPipeline;
import io.lorekeeper.document.lifecycle.Document;
import io.lorekeeper.document.lifecycle.DocumentChanges;
import io.lorekeeper.document.lifecycle.DocumentRows;
import io.lorekeeper.document.lifecycle.DocumentStage;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.platform.StorableText;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.security.TenantQuotas;
import io.lorekeeper.text.TextNormalizer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Validates a new document, renders its canonical text, stores it (or finds the identical one
 * already stored for the tenant) and queues its ingestion.
 */
@Service
public class DocumentIntake {

    private final DocumentChanges changes;
    private final DocumentRows rows;
    private final CanonicalTexts texts;
    private final DocumentLimits limits;
    private final IngestionPipeline pipeline;
    private final IngestionScheduler scheduler;
    private final CurrentTenant tenant;
    private final JsonMapper json;
    private final TransactionTemplate transaction;
    private final TenantQuotas quotas;
    private final FileExtractor extractor;

    DocumentIntake(
            DocumentChanges changes,
            DocumentRows rows,
            CanonicalTexts texts,
            DocumentLimits limits,
            IngestionPipeline pipeline,
            IngestionScheduler scheduler,
            CurrentTenant tenant,
            JsonMapper json,
            TransactionTemplate transaction,
            TenantQuotas quotas,
            FileExtractor extractor) {
        this.extractor = extractor;
        this.transaction = transaction;
        this.quotas = quotas;
        this.changes = changes;
        this.rows = rows;
        this.texts = texts;
        this.limits = limits;
        this.pipeline = pipeline;
        this.scheduler = scheduler;
        this.tenant = tenant;
        this.json = json;
    }

    public Accepted create(CreateDocument request) {
        if (request == null) {
            throw ApiProblem.invalid("body", "a JSON object with `text` or `sessions` is required");
        }
        boolean hasText = request.text() != null;
        // Generated clients send an empty list for an unset array: it means no conversation, not an empty one.
        boolean hasSessions = request.sessions() != null && !request.sessions().isEmpty();
        if (hasText && hasSessions) {
            throw ApiProblem.invalid("sessions", "give exactly one of `text` or `sessions`");
        }
        if (!hasText && !hasSessions) {
            throw request.sessions() != null
                    ? ApiProblem.invalid("sessions", "sessions must not be empty")
                    : ApiProblem.invalid("text", "give exactly one of `text` or `sessions`");
        }
        CanonicalText canonical;
        DocumentKind kind;
        if (hasText) {
            limits.checkTextSize("text", request.text());
            String text = TextNormalizer.normalize(request.text());
            if (text.isBlank()) {
                throw ApiProblem.invalid("text", "text must not be empty or whitespace only");
            }
            canonical = CanonicalText.plain(text);
            kind = DocumentKind.TEXT;
        } else {
            canonical = ConversationRenderer.render(request.sessions(), limits);
            limits.checkTextSize("sessions", canonical.text());
            kind = DocumentKind.CONVERSATION;
        }
        String title = title(request.title(), canonical.text(), kind);
        Map<String, Object> metadata = checkedMetadata(request.metadata() == null ? Map.of() : request.metadata());
        String profile = IndexProfiles.validate(request.profile());
        return store(title, kind, profile, metadata, canonical, null, List.of());
    }

    /**
     * Stores an uploaded file's text: .txt and .md read as UTF-8, PDF, DOCX, HTML and EPUB extracted
     * with their pages and sections (see {@link FileExtractor}); the file's name, detected media type,
     * size and SHA-256 are kept beside the document, its bytes are not. The name is kept as a display
     * name only ({@link FileName}), whoever sent it.
     */
    public Accepted createFromUpload(
            String sentName, byte[] content, String title, String profile, String metadataJson) {
        String filename = FileName.display(sentName);
        FileExtractor.Format format = FileExtractor.formatOf(filename, "application/octet-stream");
        // the cheap fields first: a bad one is refused before the file is parsed
        String validProfile = IndexProfiles.validate(profile);
        requireTitleLength(title);
        Map<String, Object> metadata = Map.of();
        if (metadataJson != null && !metadataJson.isBlank()) {
            // as JSON text an object takes at most six characters (an escape) for each of its own
            if (metadataJson.length() > 6 * limits.maxMetadataSize().toBytes()) {
                throw metadataTooLarge();
            }
            JsonNode tree;
            try {
                tree = json.readTree(metadataJson);
            } catch (RuntimeException e) {
                tree = null;
            }
            if (tree == null || !tree.isObject()) {
                throw ApiProblem.invalid("metadata", "metadata must be a JSON object");
            }
            // The web edge checked the form field as text; a NUL written as a JSON escape only appears once parsed.
            StorableText.requireIn("metadata", tree);
            metadata = checkedMetadata(json.treeToValue(tree, Map.class));
        }
        FileExtractor.Extraction extraction = extractor.extract(filename, format, content);
        String text;
        List<ExtractedText.Section> sections = List.of();
        if (extraction.text() == null) {
            if (content.length > limits.maxTextSize().toBytes()) {
                throw ApiProblem.tooLarge("file", "the file is larger than the limit of " + limits.maxTextSize());
            }
            text = TextNormalizer.normalize(Utf8.decode(content, "file"));
            if (text.isBlank()) {
                throw ApiProblem.invalid("file", "the file is empty or whitespace only");
            }
        } else {
            text = extraction.text().text();
            sections = extraction.text().sections();
            limits.checkTextSize("file", text);
        }
        CanonicalTexts.SourceFile source = new CanonicalTexts.SourceFile(
                filename, extraction.mediaType(), content.length, ContentHash.sha256(content));
        String defaultTitle = title;
        if ((defaultTitle == null || defaultTitle.isBlank()) && filename != null) {
            defaultTitle = filename.replaceFirst("\\.[^.]+$", "");
        }
        return store(
                title(defaultTitle, text, DocumentKind.TEXT),
                DocumentKind.TEXT,
                validProfile,
                metadata,
                CanonicalText.plain(text),
                source,
                sections);
    }

    /**
     * Rebuilds the named stages (a retrieval stage with everything after it; an enrichment stage
     * alone, the document staying READY meanwhile), or with no names resumes a failed ingestion,
     * gives failed enrichments a fresh set of attempts, due now, and runs finished enrichments whose
     * latest run left gaps (items without output) again for those gaps only. The stages' reset and the job commit
     * together; the document row stays locked until then, so a second reindex (or an append) of the
     * same document waits, then sees this one's state and job instead of racing to insert the job.
     */
    @Transactional
    public void reindex(UUID id, List<String> stages) {
        Document doc = changes.lock(tenant.id(), id).orElseThrow(() -> ApiProblem.notFound("Document", id));
        doc.requireNotIngesting("reindex once it is READY or FAILED");
        quotas.requireTokens();
        if (stages != null && !stages.isEmpty()) {
            rebuild(doc, stages);
        } else {
            doc.resume();
        }
        // the change commits when this transaction does (the aggregate is managed), and the job with it
        scheduler.schedule(id);
    }

    /** What a reindex naming {@code stages} does to the locked document: their outputs discarded, the stages reset. */
    private void rebuild(Document doc, List<String> stages) {
        UUID id = doc.id();
        List<String> rebuild = pipeline.stagesToRebuild(stages);
        doc.defineStages(pipeline.definitions());
        List<String> running = doc.stages().stream()
                .filter(s -> s.status() == StageStatus.RUNNING && rebuild.contains(s.name()))
                .map(DocumentStage::name)
                .toList();
        if (!running.isEmpty()) {
            throw ApiProblem.conflict(
                    "stage-running",
                    "Stage running",
                    "stage " + String.join(", ", running) + " of document " + id
                            + " is running; reindex it once it has finished",
                    "stages");
        }
        pipeline.discardOutputs(id, rebuild);
        doc.rebuild(rebuild, true);
    }

    /**
     * Starts building the named memories of one of the tenant's documents as a reindex naming them
     * does (the tenant's token quota checked, the stages reset and requested, the ingestion job
     * queued, all in the caller's transaction), for those of them that are still SKIPPED and would
     * be built if asked (see {@link IngestionPipeline#buildable}); the others are left as they are.
     * Returns the stages it started. A document being ingested is refused (409), as a reindex is.
     */
    @Transactional
    public List<String> buildOnDemand(UUID tenantId, UUID id, java.util.Collection<String> stages) {
        Document doc = changes.lock(tenantId, id).orElseThrow(() -> ApiProblem.notFound("Document", id));
        doc.requireNotIngesting("its memories can be built once it is READY");
        DocumentInfo info = rows.find(id).orElseThrow(() -> ApiProblem.notFound("Document", id));
        doc.defineStages(pipeline.definitions());
        List<String> start = doc.stages().stream()
                .filter(s -> stages.contains(s.name()) && s.status() == StageStatus.SKIPPED)
                .map(DocumentStage::name)
                .filter(name -> pipeline.buildable(info, name))
                .toList();
        if (start.isEmpty()) {
            return List.of();
        }
        quotas.requireTokens();
        rebuild(doc, start);
        scheduler.schedule(id);
        return start;
    }

    public boolean delete(UUID id) {
        boolean deleted = changes.delete(tenant.id(), id);
        texts.evict(id);
        return deleted;
    }

    private Accepted store(
            String title,
            DocumentKind kind,
            String profile,
            Map<String, Object> metadata,
            CanonicalText canonical,
            CanonicalTexts.SourceFile source,
            List<ExtractedText.Section> sections) {
        String hash = ContentHash.of(kind, canonical.text());
        Optional<UUID> existing = rows.findByContentHash(tenant.id(), hash);
        if (existing.isPresent()) {
            return accepted(existing.get(), false);
        }
        quotas.requireStorage(canonical.text(), 1);
        UUID id = UUID.randomUUID();
        UUID tenantId = tenant.id();
        try {
            // the document and its ingestion job: both commit or neither does
            transaction.executeWithoutResult(status -> {
                changes.insert(
                        new DocumentChanges.NewDocument(
                                id,
                                tenantId,
                                title,
                                kind,
                                profile,
                                metadata,
                                hash,
                                canonical.text().length()),
                        pipeline.definitions());
                texts.insert(id, canonical);
                if (source != null) {
                    texts.insertSource(id, source, sections);
                }
                scheduler.schedule(id);
            });
        } catch (DataIntegrityViolationException raced) {
            // Another request stored the same content between our lookup and insert (outside the failed transaction).
            // JPA reports the unique (tenant, content hash) key as a plain integrity violation, not a duplicate key.
            Optional<UUID> stored = rows.findByContentHash(tenantId, hash);
            if (stored.isEmpty()) {
                throw raced;
            }
            return accepted(stored.get(), false);
        }
        return new Accepted(id, DocumentStatus.QUEUED, true);
    }

    private Map<String, Object> checkedMetadata(Map<String, Object> metadata) {
        if (json.writeValueAsBytes(metadata).length > limits.maxMetadataSize().toBytes()) {
            throw metadataTooLarge();
        }
        return metadata;
    }

    private ApiProblem metadataTooLarge() {
        return ApiProblem.invalid("metadata", "metadata must be at most " + limits.maxMetadataSize());
    }

    private void requireTitleLength(String given) {
        if (given != null && given.strip().length() > limits.maxTitleLength()) {
            throw ApiProblem.invalid("title", "title must be at most " + limits.maxTitleLength() + " characters");
        }
    }

    private Accepted accepted(UUID id, boolean created) {
        return new Accepted(id, rows.find(id).map(DocumentInfo::status).orElse(DocumentStatus.QUEUED), created);
    }

    private String title(String given, String text, DocumentKind kind) {
        requireTitleLength(given);
        String title = given == null ? "" : given.strip();
        if (title.isEmpty()) {
            String firstLine = text.strip().lines().findFirst().orElse("").strip();
            title = kind == DocumentKind.CONVERSATION ? "Conversation" : firstLine;
            if (title.length() > 120) {
                title = title.substring(0, 120) + "…";
            }
        }
        return title;
    }
}
