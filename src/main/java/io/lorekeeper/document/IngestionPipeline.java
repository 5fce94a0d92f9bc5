package io.lorekeeper.document;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentResponses.StageView;
import io.lorekeeper.platform.Failures;
import io.lorekeeper.platform.RetryLaterException;

/**
 * Runs a document's ingestion stages in order. A stage already DONE or SKIPPED is passed over, so
 * running the pipeline again after a crash or a failure resumes where it stopped; a failing stage
 * marks the document FAILED with the reason and keeps everything stored before it. A stage that
 * must wait (a long rate-limit window) leaves the document QUEUED and the job re-queued.
 */
@Component
class IngestionPipeline {

    private static final Logger log = LoggerFactory.getLogger(IngestionPipeline.class);

    private final DocumentStore store;
    private final List<IngestionStage> stages;

    IngestionPipeline(DocumentStore store, List<IngestionStage> stages) {
        this.store = store;
        this.stages = stages.stream().sorted(Comparator.comparingInt(IngestionStage::position)).toList();
    }

    List<String> stageNames() {
        return stages.stream().map(IngestionStage::name).toList();
    }

    /** The named stages and every stage after the first of them, in order. */
    List<String> stagesFrom(List<String> names) {
        int first = stages.size();
        for (String name : names) {
            int index = stageNames().indexOf(name);
            if (index < 0) {
                throw io.lorekeeper.platform.ApiProblem.invalid("stages",
                        "unknown stage '" + name + "'; stages are " + stageNames());
            }
            first = Math.min(first, index);
        }
        return stageNames().subList(first, stages.size());
    }

    void resetStages(UUID documentId, List<String> names) {
        for (IngestionStage stage : stages) {
            if (names.contains(stage.name())) {
                stage.reset(documentId);
            }
        }
        store.resetStages(documentId, names);
    }

    void run(UUID documentId) {
        DocumentInfo document = store.find(documentId).orElse(null);
        if (document == null) {
            log.info("Document {} was deleted before ingestion finished", documentId);
            return;
        }
        store.ensureStages(documentId, stageNames());
        store.markStatus(documentId, DocumentStatus.INGESTING, null);
        Map<String, StageView> states = store.stages(documentId).stream()
                .collect(Collectors.toMap(StageView::name, Function.identity()));
        for (IngestionStage stage : stages) {
            String state = states.get(stage.name()).status();
            if (state.equals("DONE") || state.equals("SKIPPED")) {
                continue;
            }
            IngestionStage.Applicability applicability = stage.applicability(document);
            if (!applicability.applies()) {
                store.markStage(documentId, stage.name(), "SKIPPED", applicability.reason());
                continue;
            }
            store.markStage(documentId, stage.name(), "RUNNING", null);
            long started = System.nanoTime();
            try {
                stage.run(new Run(document, stage.name()));
            } catch (RetryLaterException later) {
                store.markStage(documentId, stage.name(), "PENDING", "waiting: " + later.getMessage());
                store.markStatus(documentId, DocumentStatus.QUEUED, null);
                throw later;
            } catch (Exception e) {
                String reason = stage.name() + " failed: " + Failures.describe(e);
                log.warn("Ingestion of {} stopped: {}", documentId, reason, e);
                if (store.find(documentId).isPresent()) {
                    store.markStage(documentId, stage.name(), "FAILED", Failures.describe(e));
                    store.markStatus(documentId, DocumentStatus.FAILED, reason);
                }
                return;
            }
            store.markStage(documentId, stage.name(), "DONE", null);
            document = store.find(documentId).orElse(document);
            log.info("Stage {} of document {} done in {} ms", stage.name(), documentId, (System.nanoTime() - started) / 1_000_000);
        }
        store.markStatus(documentId, DocumentStatus.READY, null);
    }

    private final class Run implements StageRun {
        private final DocumentInfo document;
        private final String stage;

        Run(DocumentInfo document, String stage) {
            this.document = document;
            this.stage = stage;
        }

        @Override
        public DocumentInfo document() {
            return document;
        }

        @Override
        public void progress(int done, int total) {
            store.stageProgress(document.id(), stage, done, total);
        }
    }
}
