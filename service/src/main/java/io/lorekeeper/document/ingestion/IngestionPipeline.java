package io.lorekeeper.document.ingestion;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.DocumentStatus;
import io.lorekeeper.document.IndexProfiles;
import io.lorekeeper.document.StageStatus;
import io.lorekeeper.document.lifecycle.Document;
import io.lorekeeper.document.lifecycle.DocumentChanges;
import io.lorekeeper.document.lifecycle.DocumentRows;
import io.lorekeeper.document.lifecycle.StageDef;
import io.lorekeeper.document.lifecycle.StageState;
import io.lorekeeper.document.stage.IngestionStage;
import io.lorekeeper.document.stage.StageRun;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.platform.Failures;
import io.lorekeeper.platform.IllegalTransitionException;
import io.lorekeeper.platform.RetryLaterException;
import io.micrometer.observation.ObservationRegistry;

/**
 * Runs a document's stages in two levels. The retrieval stages (segment, embed) run first, in
 * order; a failing one marks the document FAILED with the reason and keeps everything stored
 * before it. Once they are done the document is READY: searchable and answerable by every
 * strategy that needs only retrieval. Then the enrichment stages (LLM-built memories) run, each on
 * its own: a failure is recorded on that stage with the reason and retried with backoff, and never
 * touches the document's status or what it already has.
 *
 * <p>A stage already DONE or SKIPPED is passed over, so running the pipeline again after a crash,
 * a failure or an append resumes where it stopped. A stage that must wait (a long rate-limit
 * window) leaves the job re-queued.
 */
@Component
public class IngestionPipeline {

    private static final Logger log = LoggerFactory.getLogger(IngestionPipeline.class);
    /** Sessions appended while the job ran reset stages; the job goes round again rather than leave them for later. */
    private static final int MAX_ROUNDS = 10;

    private final DocumentChanges changes;
    private final DocumentRows rows;
    private final StageProgress stageProgress;
    private final List<IngestionStage> stages;
    private final EnrichmentSettings enrichment;
    private final ObservationRegistry observations;

    IngestionPipeline(
            DocumentChanges changes,
            DocumentRows rows,
            StageProgress stageProgress,
            List<IngestionStage> stages,
            EnrichmentSettings enrichment,
            ObservationRegistry observations) {
        this.observations = observations;
        this.changes = changes;
        this.rows = rows;
        this.stageProgress = stageProgress;
        this.stages = stages.stream()
                .sorted(Comparator.comparingInt(IngestionStage::position))
                .toList();
        this.enrichment = enrichment;
    }

    public List<String> stageNames() {
        return stages.stream().map(IngestionStage::name).toList();
    }

    public List<StageDef> definitions() {
        return stages.stream().map(s -> new StageDef(s.name(), s.enrichment())).toList();
    }

    private IngestionStage stage(String name) {
        return stages.stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(
                        () -> ApiProblem.invalid("stages", "unknown stage '" + name + "'; stages are " + stageNames()));
    }

    /**
     * What a reindex naming these stages rebuilds: a retrieval stage and every stage after it
     * (everything later derives from the chunks); an enrichment stage alone.
     */
    public List<String> stagesToRebuild(List<String> names) {
        int firstRetrieval = stages.size();
        java.util.Set<String> chosen = new java.util.LinkedHashSet<>();
        for (String name : names) {
            IngestionStage stage = stage(name);
            if (stage.enrichment()) {
                chosen.add(name);
            } else {
                firstRetrieval = Math.min(firstRetrieval, stages.indexOf(stage));
            }
        }
        chosen.addAll(stageNames().subList(firstRetrieval, stages.size()));
        return stageNames().stream().filter(chosen::contains).toList();
    }

    /**
     * Whether the named memory of the document would be built if someone asked for it now: an
     * enrichment stage whose own conditions hold (an LLM is configured, the profile builds LLM-written
     * memory), skipped only because it is built on demand (or because it did not apply when the
     * document was ingested).
     */
    public boolean buildable(DocumentInfo document, String name) {
        return stages.stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .filter(IngestionStage::enrichment)
                .map(s -> s.applicability(document).applies())
                .orElse(false);
    }

    /** Discards what the named stages built, before the document's {@link Document#rebuild} in the same transaction. */
    public void discardOutputs(UUID documentId, List<String> names) {
        for (IngestionStage stage : stages) {
            if (names.contains(stage.name())) {
                stage.reset(documentId);
            }
        }
    }

    void run(UUID documentId) {
        for (int round = 0; round < MAX_ROUNDS; round++) {
            DocumentInfo document = rows.find(documentId).orElse(null);
            if (document == null) {
                log.info("Document {} was deleted before ingestion finished", documentId);
                return;
            }
            changes.change(documentId, d -> d.defineStages(definitions()));
            Map<String, StageState> states = states(documentId);
            if (document.status() != DocumentStatus.READY || !retrievalDone(states)) {
                document = runRetrieval(document, states);
                if (document == null) {
                    return;
                }
            }
            Instant nextRetry = runEnrichments(document);
            if (!needsAnotherRound(documentId)) {
                if (nextRetry != null) {
                    Duration wait = Duration.between(Instant.now(), nextRetry);
                    throw new RetryLaterException(
                            "enrichment retry of document " + documentId, wait.isNegative() ? Duration.ZERO : wait);
                }
                return;
            }
        }
        log.warn("Document {} kept changing while it was ingested; its next job will finish it", documentId);
    }

    private Map<String, StageState> states(UUID documentId) {
        return rows.stages(documentId).stream().collect(Collectors.toMap(StageState::name, Function.identity()));
    }

    private boolean retrievalDone(Map<String, StageState> states) {
        return stages.stream()
                .filter(s -> !s.enrichment())
                .allMatch(s -> states.get(s.name()).finished());
    }

    /** Sessions were appended (the document is QUEUED again) or a stage was reset while this round ran. */
    private boolean needsAnotherRound(UUID documentId) {
        DocumentInfo now = rows.find(documentId).orElse(null);
        return now != null
                && (now.status() != DocumentStatus.READY
                        || rows.stages(documentId).stream().anyMatch(s -> s.status() == StageStatus.PENDING));
    }

    /**
     * Runs the retrieval stages; the READY document, or null when one failed (the document is then
     * FAILED), when the document was deleted meanwhile, or when its state refuses ingestion (FAILED:
     * a reindex resumes it).
     */
    private DocumentInfo runRetrieval(DocumentInfo document, Map<String, StageState> states) {
        UUID documentId = document.id();
        try {
            if (!changes.change(documentId, Document::startIngestion)) {
                return deleted(documentId);
            }
        } catch (IllegalTransitionException settled) {
            log.info("Ingestion of {} not started: {}", documentId, settled.getMessage());
            return null;
        }
        for (IngestionStage stage : stages) {
            if (stage.enrichment() || states.get(stage.name()).finished()) {
                continue;
            }
            IngestionStage.Applicability applicability = stage.applicability(document);
            if (!applicability.applies()) {
                if (!changes.change(documentId, d -> d.skipStage(stage.name(), applicability.reason()))) {
                    return deleted(documentId);
                }
                continue;
            }
            Integer generation = changes.changeAndGet(documentId, d -> d.startStage(stage.name()))
                    .orElse(null);
            if (generation == null) {
                return deleted(documentId);
            }
            long started = System.nanoTime();
            if (!runStage(document, stage, generation)) {
                return null;
            }
            if (!changes.change(
                    documentId, d -> d.finishStage(stage.name(), generation, StageStatus.DONE, null, null))) {
                return deleted(documentId);
            }
            document = rows.find(documentId).orElse(document);
            log.info(
                    "Stage {} of document {} done in {} ms",
                    stage.name(),
                    documentId,
                    (System.nanoTime() - started) / 1_000_000);
        }
        if (!changes.change(documentId, Document::ready)) {
            return deleted(documentId);
        }
        return rows.find(documentId).orElse(document);
    }

    /**
     * Runs one retrieval stage; false when it failed, the document then FAILED with the stage's reason.
     * A stage waiting out a rate limit leaves the document QUEUED and its job re-queued.
     */
    private boolean runStage(DocumentInfo document, IngestionStage stage, int generation) {
        UUID documentId = document.id();
        try {
            StageObservation.run(observations, stage, new Run(document, stage.name(), generation));
            return true;
        } catch (RetryLaterException later) {
            changes.change(documentId, d -> {
                d.finishStage(stage.name(), generation, StageStatus.PENDING, "waiting: " + later.getMessage(), null);
                d.waitForRetry();
            });
            throw later;
        } catch (Exception e) {
            String reason = stage.name() + " failed: " + Failures.describe(e);
            log.warn("Ingestion of {} stopped: {}", documentId, reason, e);
            changes.change(documentId, d -> {
                d.finishStage(stage.name(), generation, StageStatus.FAILED, Failures.describe(e), null);
                d.fail(reason);
            });
            return false;
        }
    }

    private static DocumentInfo deleted(UUID documentId) {
        log.info("Document {} was deleted while it was ingested", documentId);
        return null;
    }

    /** Runs every enrichment stage that is due; returns when the earliest scheduled retry is, or null. */
    private Instant runEnrichments(DocumentInfo document) {
        UUID documentId = document.id();
        Instant nextRetry = null;
        Map<String, StageState> states = states(documentId);
        for (IngestionStage stage : stages) {
            StageState state = states.get(stage.name());
            if (!stage.enrichment() || state.finished()) {
                continue;
            }
            if (state.status() == StageStatus.FAILED) {
                if (state.retryAt() == null) {
                    continue; // attempts spent: stays FAILED until a reindex names it
                }
                if (state.retryAt().isAfter(Instant.now())) {
                    nextRetry = earliest(nextRetry, state.retryAt());
                    continue;
                }
            }
            IngestionStage.Applicability applicability = applicability(stage, document, state);
            if (!applicability.applies()) {
                changes.change(documentId, d -> d.skipStage(stage.name(), applicability.reason()));
                continue;
            }
            Instant retry = runEnrichment(stage, document, state);
            nextRetry = retry == null ? nextRetry : earliest(nextRetry, retry);
        }
        return nextRetry;
    }

    private IngestionStage.Applicability applicability(IngestionStage stage, DocumentInfo document, StageState state) {
        IngestionStage.Applicability own = stage.applicability(document);
        if (own.applies() && stage.onDemand() && !state.requested() && !IndexProfiles.DEEP.equals(document.profile())) {
            return IngestionStage.Applicability.skip(
                    "built on demand: POST /v1/documents/" + document.id() + "/reindex with {\"stages\": [\""
                            + stage.name() + "\"]}, or upload with profile \"" + IndexProfiles.DEEP + "\"");
        }
        return own;
    }

    /** Runs one enrichment stage; a failure is recorded on the stage alone. Returns the retry time it scheduled, if any. */
    private Instant runEnrichment(IngestionStage stage, DocumentInfo document, StageState state) {
        UUID documentId = document.id();
        Integer generation = changes.changeAndGet(documentId, d -> d.startStage(stage.name()))
                .orElse(null);
        if (generation == null) {
            return null; // deleted
        }
        int attempt = state.attempts() + 1;
        long started = System.nanoTime();
        stageProgress.clearItemFailures(documentId, stage.name(), generation);
        Run run = new Run(document, stage.name(), generation);
        try {
            StageObservation.run(observations, stage, run);
        } catch (RetryLaterException later) {
            finish(documentId, stage, generation, StageStatus.PENDING, "waiting: " + later.getMessage(), null);
            throw later;
        } catch (Exception e) {
            return failed(stage, documentId, generation, attempt, e);
        }
        int gaps = run.failed();
        finish(
                documentId,
                stage,
                generation,
                StageStatus.DONE,
                gaps == 0
                        ? null
                        : gaps + (gaps == 1 ? " item was" : " items were")
                                + " left without output (the model's reply stayed unusable); POST /v1/documents/"
                                + documentId + "/reindex without stages tries " + (gaps == 1 ? "it" : "them")
                                + " again",
                null);
        log.info(
                "Stage {} of document {} done in {} ms{}",
                stage.name(),
                documentId,
                (System.nanoTime() - started) / 1_000_000,
                gaps == 0 ? "" : ", " + gaps + " items left without output");
        return null;
    }

    /** Records a failed enrichment run: retried later while attempts are left (returns when), else given up. */
    private Instant failed(IngestionStage stage, UUID documentId, int generation, int attempt, Exception e) {
        String reason = Failures.describe(e);
        if (attempt < enrichment.maxAttempts()) {
            Instant retryAt = Instant.now().plus(enrichment.backoff(attempt));
            log.warn(
                    "Enrichment {} of document {} failed (attempt {} of {}), retrying at {}: {}",
                    stage.name(),
                    documentId,
                    attempt,
                    enrichment.maxAttempts(),
                    retryAt,
                    reason);
            finish(
                    documentId,
                    stage,
                    generation,
                    StageStatus.FAILED,
                    reason + " (attempt " + attempt + " of " + enrichment.maxAttempts() + ")",
                    retryAt);
            return retryAt;
        }
        log.warn(
                "Enrichment {} of document {} failed {} times; giving up: {}",
                stage.name(),
                documentId,
                attempt,
                reason,
                e);
        finish(
                documentId,
                stage,
                generation,
                StageStatus.FAILED,
                reason + " (gave up after " + attempt + " attempts; POST /v1/documents/" + documentId
                        + "/reindex with {\"stages\": [\"" + stage.name() + "\"]} runs it again)",
                null);
        return null;
    }

    /** Records an enrichment run's outcome, unless the stage was reset meanwhile (appended sessions, a reindex). */
    private void finish(
            UUID documentId,
            IngestionStage stage,
            int generation,
            StageStatus outcome,
            String message,
            Instant retryAt) {
        changes.change(documentId, d -> d.finishStage(stage.name(), generation, outcome, message, retryAt));
    }

    private static String abbreviate(String failure) {
        return failure.length() <= 300 ? failure : failure.substring(0, 299) + "…";
    }

    private static Instant earliest(Instant a, Instant b) {
        return a == null || b.isBefore(a) ? b : a;
    }

    private final class Run implements StageRun {
        private final DocumentInfo document;
        private final String stage;
        private final int generation;
        private final ForwardProgress progress;
        private final java.util.concurrent.atomic.AtomicInteger failed =
                new java.util.concurrent.atomic.AtomicInteger();

        Run(DocumentInfo document, String stage, int generation) {
            this.document = document;
            this.stage = stage;
            this.generation = generation;
            this.progress =
                    new ForwardProgress((done, total) -> stageProgress.progress(document.id(), stage, done, total));
        }

        @Override
        public void itemFailed(String item, String reason) {
            failed.incrementAndGet();
            log.warn("Stage {} of document {} left {} without output: {}", stage, document.id(), item, reason);
            stageProgress.itemFailed(document.id(), stage, generation, abbreviate(item + ": " + reason));
        }

        int failed() {
            return failed.get();
        }

        @Override
        public DocumentInfo document() {
            return document;
        }

        @Override
        public void progress(int done, int total) {
            progress.report(done, total);
        }
    }
}
